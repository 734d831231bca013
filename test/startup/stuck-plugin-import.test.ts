import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { signAdminToken } from '../../host/auth/admin-token.ts';
import { createTestDatabase } from '../support/test-database.ts';
import { startHostProcess } from '../support/host-process.ts';
import { createPluginRoot, writeChannelPackage } from '../support/temp-plugin-root.ts';
const AUTH_SECRET = 'stuck-import-test-auth-secret-0123456789abcdef';
/** Long enough that the stuck import is still pending while the test looks. */
const START_TIMEOUT_MS = 60_000;

/** An app root whose one channel package never finishes importing. */
async function rootWithStuckPlugin(): Promise<string> {
  const root = await createPluginRoot('bot-stuck-root-');
  await writeChannelPackage(root, 'stuck', 'await new Promise(() => {});\nexport default class Never {}\n');
  return root;
}

test('a plugin stuck at import delays neither listening nor readiness; the built-in channels serve meanwhile', async (t) => {
  const root = await rootWithStuckPlugin();
  t.after(() => rm(root, { recursive: true, force: true }));
  const database = await createTestDatabase();
  t.after(() => database.close());
  const dataDir = await mkdtemp(path.join(tmpdir(), 'bot-stuck-data-'));
  t.after(() => rm(dataDir, { recursive: true, force: true }));

  const host = await startHostProcess(
    {
      DATABASE_URL: database.url,
      BOT_DATA_DIR: dataDir,
      BOT_APP_ROOT: root,
      BOT_AUTH_SECRET: AUTH_SECRET,
      BOT_DOWNLOAD_SECRET: 'stuck-import-test-download-secret-0123456789abcdef',
      BOT_SANDBOX_START_TIMEOUT_MS: String(START_TIMEOUT_MS),
    },
    90_000,
    false,
  );
  t.after(() => host.kill());

  const ready = await fetch(`${host.url}/health/ready`);
  assert.equal(ready.status, 200, await ready.text());
  const token = signAdminToken({ sub: 'stuck-test', role: 'admin' }, AUTH_SECRET, { ttl: '1h' });
  const listed = await fetch(`${host.url}/api/channel`, { headers: { authorization: `Bearer ${token}` } });
  const names = ((await listed.json()) as { items: Array<{ name: string; running: boolean }> }).items;
  assert.ok(names.some((channel) => channel.name === 'web' && channel.running), 'the built-in web channel serves');
  assert.ok(!names.some((channel) => channel.name === 'stuck'), 'the stuck plugin is not registered');
  assert.doesNotMatch(host.output(), /channels discovered/, 'the stuck import is still pending: the host did not wait for it');
});
