/**
 * Discovery refuses a plugin holding a link that leads outside it, by where the link leads (its
 * real path), not by its name; links into packages Node rightly resolves are kept.
 */
import assert from 'node:assert/strict';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { test } from 'node:test';
import { createChannelRegistry } from '../../../host/channels/create-channel-registry.ts';
import { ChannelStateStore } from '../../../host/channels/channel-state-store.ts';
import { createTestDatabase } from '../../support/test-database.ts';
import { linkedApp } from '../../support/linked-app.ts';

const HOST_ROOT = fileURLToPath(new URL('../../..', import.meta.url)).replace(/\/$/, '');
const BYSTANDER = fileURLToPath(new URL('../../fixtures/hostile-root/node_modules/bot-channel-bystander', import.meta.url));

test("discovery rejects a package or local channel whose links lead to /etc, the host's files, the data directory or another channel", async (t) => {
  const database = await createTestDatabase();
  t.after(() => database.close());
  const names = ['etc', 'host', 'data', 'renamed-channel', 'store', 'local'];
  const app = await linkedApp(t, Object.fromEntries(names.map((name) => [`bot-channel-${name}`, BYSTANDER])));
  const dataDir = path.join(app.root, 'var');
  await mkdir(dataDir);
  await writeFile(path.join(dataDir, 'secrets.json'), '{}');
  const link = async (name: string, entry: string, target: string) => {
    await mkdir(path.join(app.packageDir(`bot-channel-${name}`), 'node_modules'), { recursive: true });
    await symlink(target, path.join(app.packageDir(`bot-channel-${name}`), 'node_modules', entry));
  };
  await link('etc', 'evil-etc', '/etc');
  await link('host', 'evil-host', path.join(HOST_ROOT, 'host'));
  await link('data', 'evil-var', dataDir);
  await link('renamed-channel', 'innocent-sample', '../../bot-channel-store');
  // A pnpm-style store: the link leads to a package Node resolves, which the runner may read.
  await mkdir(path.join(app.root, 'node_modules/.pnpm/left-pad/node_modules/left-pad'), { recursive: true });
  await writeFile(path.join(app.root, 'node_modules/.pnpm/left-pad/node_modules/left-pad/package.json'), '{"name":"left-pad"}');
  await link('store', 'left-pad', '../../.pnpm/left-pad/node_modules/left-pad');
  // A local channel (the app's own build) holding a link to /etc.
  const local = path.join(app.root, 'dist/extensions/channels/linked');
  await mkdir(local, { recursive: true });
  await writeFile(path.join(local, 'index.channel.js'), "export { default } from 'bot-channel-local';\n");
  await symlink('/etc', path.join(local, 'etc'));

  const registry = createChannelRegistry({
    appRoot: app.root,
    hostRoot: HOST_ROOT,
    sandbox: { callTimeoutMs: 15_000, startTimeoutMs: 30_000, maxHeapMb: 64, maxThreads: 1, maxQueue: 10, idleTimeoutMs: 1_000, isolation: isolationWith(dataDir) },
    hostServicesFor: () => ({ getAttachmentPublicUrl: async () => '' }),
    states: new ChannelStateStore(database.db),
    logger: pino({ level: 'silent' }),
  });
  t.after(() => registry.close());
  await registry.load();
  const entry = (fragment: string) => registry.diagnostics().find((found) => found.file.includes(fragment));
  for (const name of ['etc', 'host', 'data', 'renamed-channel']) {
    const found = entry(`/bot-channel-${name}/`);
    assert.equal(found?.status, 'rejected', `bot-channel-${name}: ${JSON.stringify(found)}`);
    assert.equal(found.code, 'BOT_ERR_PLUGIN_LINK_OUTSIDE');
    assert.match(String(found.message), /node_modules\/(evil|innocent)-/);
  }
  assert.equal(entry('/extensions/channels/linked/')?.code, 'BOT_ERR_PLUGIN_LINK_OUTSIDE');
  // The store's package is registered (the bystander's name is taken by the first to load).
  const store = entry('/bot-channel-store/');
  assert.notEqual(store?.code, 'BOT_ERR_PLUGIN_LINK_OUTSIDE', JSON.stringify(store));
});

function isolationWith(dataDir: string) {
  return {
    mode: 'auto' as const,
    limits: { maxRssMb: 4_096, maxIdleCpuPercent: 1_000, idleCpuStrikes: 1_000, intervalMs: 1_000 },
    restartDelay: { initialMs: 100, maxMs: 2_000 },
    privatePaths: [dataDir],
  };
}
