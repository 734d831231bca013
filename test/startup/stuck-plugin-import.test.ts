import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test, type TestContext } from 'node:test';
import { signAdminToken } from '../../host/auth/admin-token.ts';
import { createTestDatabase } from '../support/test-database.ts';
import { startHostProcess, type HostProcess } from '../support/host-process.ts';
import { createPluginRoot, writeChannelPackage } from '../support/temp-plugin-root.ts';
const AUTH_SECRET = 'stuck-import-test-auth-secret-0123456789abcdef';
/** Long enough that the stuck import is still pending when the test first looks, even on a busy machine. */
const START_TIMEOUT_MS = 10_000;
/** How long the test waits for readiness after the start limit: room for a busy machine. */
const READY_DEADLINE_MS = START_TIMEOUT_MS + 50_000;

/** An app root whose one channel package never finishes importing. */
async function rootWithStuckPlugin(): Promise<string> {
  const root = await createPluginRoot('bot-stuck-root-');
  await writeChannelPackage(root, 'stuck', 'await new Promise(() => {});\nexport default class Never {}\n');
  return root;
}

/**
 * `npm start` on a database and data folder of its own (both removed after the test), with the
 * app root and start limit given; returned once it listens, without waiting for its channels.
 */
async function startHost(t: TestContext, env: { BOT_APP_ROOT?: string; BOT_SANDBOX_START_TIMEOUT_MS?: string }): Promise<HostProcess> {
  const database = await createTestDatabase();
  t.after(() => database.close());
  const dataDir = await mkdtemp(path.join(tmpdir(), 'bot-readiness-data-'));
  t.after(() => rm(dataDir, { recursive: true, force: true }));
  const host = await startHostProcess(
    { DATABASE_URL: database.url, BOT_DATA_DIR: dataDir, BOT_AUTH_SECRET: AUTH_SECRET, BOT_DOWNLOAD_SECRET: 'readiness-test-download-secret-0123456789abcdef', ...env },
    90_000,
    false,
  );
  t.after(() => host.kill());
  return host;
}

test('a plugin stuck at import holds readiness for at most its start limit; listening and the built-in channels do not wait', async (t) => {
  const root = await rootWithStuckPlugin();
  t.after(() => rm(root, { recursive: true, force: true }));
  const host = await startHost(t, { BOT_APP_ROOT: root, BOT_SANDBOX_START_TIMEOUT_MS: String(START_TIMEOUT_MS) });

  // Still loading the plugin: live, serving the built-in channels, but not ready for traffic.
  const early = await fetch(`${host.url}/health/ready`);
  const earlyBody = await early.text();
  assert.equal(early.status, 503, earlyBody);
  assert.match((JSON.parse(earlyBody) as { error: { message: string } }).error.message, /channels/);
  assert.equal((await fetch(`${host.url}/health/live`)).status, 200);
  const token = signAdminToken({ sub: 'stuck-test', role: 'admin' }, AUTH_SECRET, { ttl: '1h' });
  const listed = await fetch(`${host.url}/api/channel`, { headers: { authorization: `Bearer ${token}` } });
  const names = ((await listed.json()) as { items: Array<{ name: string; running: boolean }> }).items;
  assert.ok(names.some((channel) => channel.name === 'web' && channel.running), 'the built-in web channel serves');
  assert.ok(!names.some((channel) => channel.name === 'stuck'), 'the stuck plugin is not registered');

  // The stuck plugin never finishes; its start limit releases readiness anyway.
  const deadline = Date.now() + READY_DEADLINE_MS;
  let status = early.status;
  while (status !== 200 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    status = (await fetch(`${host.url}/health/ready`)).status;
  }
  assert.equal(status, 200, 'ready once the stuck plugin had its start limit');
  // Discovery ends at about the same moment: the stuck plugin is then rejected, with its reason.
  let stuck: { status: string; code?: string } | undefined;
  while (stuck?.status !== 'rejected' && Date.now() < deadline) {
    const diagnostics = await fetch(`${host.url}/api/channel/diagnostics`, { headers: { authorization: `Bearer ${token}` } });
    const entries = ((await diagnostics.json()) as { items: Array<{ file: string; status: string; code?: string }> }).items;
    stuck = entries.find((entry) => entry.file.includes('stuck'));
    if (stuck?.status !== 'rejected') await new Promise((resolve) => setTimeout(resolve, 250));
  }
  assert.equal(stuck?.status, 'rejected', JSON.stringify(stuck));
});

test('a plugin that takes 3 s to import holds readiness for those seconds, not for its start limit', async (t) => {
  const root = await createPluginRoot('bot-slow-root-');
  t.after(() => rm(root, { recursive: true, force: true }));
  // Three seconds to import, then a default export discovery rejects: loaded or rejected, it has settled.
  await writeChannelPackage(root, 'slow', 'await new Promise((resolve) => setTimeout(resolve, 3000));\nexport default class NotAChannel {}\n');
  // Far beyond the import: readiness must follow the plugin, not this limit.
  const host = await startHost(t, { BOT_APP_ROOT: root, BOT_SANDBOX_START_TIMEOUT_MS: '120000' });
  assert.equal((await fetch(`${host.url}/health/ready`)).status, 503, 'still importing');
  const deadline = Date.now() + 60_000;
  while ((await fetch(`${host.url}/health/ready`)).status !== 200) {
    assert.ok(Date.now() < deadline, 'ready once the slow plugin settled, long before its start limit');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const token = signAdminToken({ sub: 'slow-test', role: 'admin' }, AUTH_SECRET, { ttl: '1h' });
  const diagnostics = await fetch(`${host.url}/api/channel/diagnostics`, { headers: { authorization: `Bearer ${token}` } });
  const entries = ((await diagnostics.json()) as { items: Array<{ file: string; status: string }> }).items;
  assert.equal(entries.find((entry) => entry.file.includes('slow'))?.status, 'rejected', 'by the time the host is ready, the slow plugin has settled');
});

test('readiness waits for the plugins: once ready, the sample channel is registered', async (t) => {
  const host = await startHost(t, {});
  const token = signAdminToken({ sub: 'ready-test', role: 'admin' }, AUTH_SECRET, { ttl: '1h' });
  const deadline = Date.now() + 60_000;
  while ((await fetch(`${host.url}/health/ready`)).status !== 200) {
    assert.ok(Date.now() < deadline, 'ready within a minute');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const listed = await fetch(`${host.url}/api/channel`, { headers: { authorization: `Bearer ${token}` } });
  const names = ((await listed.json()) as { items: Array<{ name: string }> }).items.map((channel) => channel.name);
  assert.ok(names.includes('sample'), `the plugin channel is loaded by the time the host is ready: ${names.join(', ')}`);
});
