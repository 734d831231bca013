import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import pino from 'pino';
import { createServices, type Services } from '../../../host/services.ts';
import { LISTEN_APPLICATION_NAME } from '../../../host/db/listen-connection.ts';
import { createTestApp, type TestApp } from '../../support/test-app.ts';
import { UpgradablePluginRoot } from './upgradable-plugin-root.ts';

const SANDBOX = { callTimeoutMs: 5_000, maxHeapMb: 64, maxThreads: 2, maxQueue: 100, idleTimeoutMs: 1_000 };

let root: UpgradablePluginRoot;
let t: TestApp;
let sourceRef: string;
let sourceId: string;
let nextId = 0;

before(async () => {
  root = await UpgradablePluginRoot.create();
  await root.install('hot', '1.0.0');
  t = await createTestApp({ channels: { appRoot: root.dir, sandbox: SANDBOX } });
  await t.services.channels.load();
  const created = await t.request('POST', '/api/sources', { as: 'admin', body: { name: 'Hot', channel: 'hot', settings: {} } });
  assert.equal(created.status, 201, created.text);
  ({ ref: sourceRef, id: sourceId } = created.body);
});
after(async () => {
  await t.close();
  await root.close();
});

const deliver = (text: string, delayMs = 0) =>
  t.request('POST', `/api/webhook/${sourceRef}`, {
    body: { id: `e${++nextId}`, text },
    headers: { 'x-delay-ms': String(delayMs) },
  });

/** A second host instance on the same database and plugin root, as a restart or a scale-out would make. */
async function anotherInstance(): Promise<Services> {
  const services = createServices({ db: t.database.db, logger: pino({ level: 'silent' }), channels: { appRoot: root.dir, sandbox: SANDBOX } });
  await services.channels.load();
  return services;
}

async function closeInstance(services: Services): Promise<void> {
  await services.channelSync.close();
  await services.channels.close();
}

async function until(condition: () => boolean, what: string, timeoutMs = 2_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) assert.fail(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

test('disable answers 503 at once, enable serves again at once, without a restart', async () => {
  assert.equal((await deliver('before')).status, 200);

  const disabled = await t.request('POST', '/api/channel/hot/disable', { as: 'editor' });
  assert.equal(disabled.status, 200, disabled.text);
  assert.equal(disabled.body.enabled, false);
  assert.equal(disabled.body.running, false);
  const refused = await deliver('while disabled');
  assert.equal(refused.status, 503);
  assert.equal(refused.body.error.code, 'BOT_ERR_WEBHOOK_CHANNEL_UNAVAILABLE');
  const diagnostics = await t.request('GET', '/api/channel/diagnostics', { as: 'viewer' });
  assert.equal(diagnostics.body.items.find((entry: { name: string }) => entry.name === 'hot').status, 'disabled');
  const listed = await t.request('GET', '/api/channel', { as: 'viewer' });
  // The root links this repo's @bot-ai/api, whose built-in `web` channel is discovered too.
  assert.deepEqual(listed.body.items.map(({ name, enabled }: { name: string; enabled: boolean }) => [name, enabled]), [['web', true], ['hot', false]]);

  const enabled = await t.request('POST', '/api/channel/hot/enable', { as: 'editor' });
  assert.equal(enabled.status, 200, enabled.text);
  assert.equal(enabled.body.running, true);
  assert.equal((await deliver('after')).status, 200);
});

test('the enabled state is kept in Postgres and survives a restart', async () => {
  assert.equal((await t.request('POST', '/api/channel/hot/disable', { as: 'admin' })).status, 200);
  const restarted = await anotherInstance();
  try {
    assert.equal(restarted.channels.get('hot')?.enabled, false);
    assert.equal(restarted.channels.running('hot'), undefined);
  } finally {
    await closeInstance(restarted);
    assert.equal((await t.request('POST', '/api/channel/hot/enable', { as: 'admin' })).status, 200);
  }
});

test('enabling or disabling on one instance reaches another through LISTEN/NOTIFY', async () => {
  const other = await anotherInstance();
  await other.channelSync.start();
  await t.services.channelSync.start();
  try {
    assert.ok(other.channels.running('hot'));
    assert.equal((await t.request('POST', '/api/channel/hot/disable', { as: 'admin' })).status, 200);
    await until(() => other.channels.running('hot') === undefined, 'the other instance disabled the channel');
    assert.equal((await t.request('POST', '/api/channel/hot/enable', { as: 'admin' })).status, 200);
    await until(() => other.channels.running('hot') !== undefined, 'the other instance enabled the channel');
  } finally {
    await t.services.channelSync.close();
    await closeInstance(other);
  }
});

test('an instance whose listening connection is cut reconnects and applies the change it missed', async () => {
  const other = await anotherInstance();
  await other.channelSync.start();
  try {
    const killed = await t.database.db.raw<{ rows: { killed: boolean }[] }>(
      `SELECT pg_terminate_backend(pid) AS killed FROM pg_stat_activity WHERE datname = current_database() AND application_name = ?`,
      [LISTEN_APPLICATION_NAME],
    );
    assert.ok(killed.rows.some((row) => row.killed), 'a listening connection was cut');
    // Changed while the other instance cannot hear: only the re-apply after reconnecting brings it.
    await t.services.channelStates.save('hot', false, 'test');
    await until(() => other.channels.running('hot') === undefined, 'the other instance applied the missed change', 5_000);
  } finally {
    await t.services.channelStates.save('hot', true, 'test');
    await t.services.channels.applyStates();
    await closeInstance(other);
  }
});

test('an instance cut off while a channel package changed on disk rescans after reconnecting', async () => {
  const other = await anotherInstance();
  await other.channelSync.start();
  try {
    await t.database.db.raw(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND application_name = ?`, [LISTEN_APPLICATION_NAME]);
    // Installed and announced while the other instance cannot hear: the notice is lost with its
    // connection, so only a rescan after reconnecting finds the package.
    await root.install('late', '1.0.0');
    await t.services.channelStates.announceRescan();
    await until(() => other.channels.running('late') !== undefined, 'the other instance found the package it was not told about', 5_000);
  } finally {
    await root.remove('late');
    await closeInstance(other);
  }
});

test('an upgrade under continuous requests moves traffic to the new version with no failed request', async () => {
  let stop = false;
  const statuses: number[] = [];
  // Four clients in a loop, each request spending a moment inside decode, so requests are in flight during the switch.
  const clients = Array.from({ length: 4 }, async () => {
    while (!stop) statuses.push((await deliver('load', 15)).status);
  });
  await until(() => statuses.length >= 8, 'requests flow before the upgrade');
  const old = t.services.channels.running('hot')!.loaded;

  await root.install('hot', '2.0.0');
  const rescan = await t.request('POST', '/api/channel/rescan', { as: 'editor' });
  const countAtSwitch = statuses.length;
  await until(() => statuses.length >= countAtSwitch + 8, 'requests flow after the upgrade');
  stop = true;
  await Promise.all(clients);

  assert.equal(rescan.status, 200, rescan.text);
  assert.deepEqual(rescan.body.upgraded, [{ name: 'hot', from: '1.0.0', to: '2.0.0' }]);
  assert.deepEqual(statuses.filter((status) => status !== 200), [], 'every request during the switch succeeded');
  assert.notEqual(t.services.channels.running('hot')!.loaded, old, 'a new pool serves the channel');
  await assert.rejects(old.sandbox.describe(), { code: 'BOT_ERR_PLUGIN_SANDBOX_CLOSED' }, 'the old pool was drained and closed');

  assert.equal((await deliver('fresh')).status, 200);
  const last = await t.database.db('inbound_events').where({ source_id: sourceId, event_id: `e${nextId}` }).first();
  assert.equal(last.event.message.data.text, '2.0.0:fresh');
  const listed = await t.request('GET', '/api/channel', { as: 'viewer' });
  assert.deepEqual(listed.body.items.find((channel: { name: string }) => channel.name === 'hot').package, { name: 'bot-channel-hot', version: '2.0.0' });
});

test('a rescan without changes keeps the running pool; it reports added and removed channels', async () => {
  const running = t.services.channels.running('hot')!.loaded;
  const unchanged = await t.request('POST', '/api/channel/rescan', { as: 'admin' });
  assert.deepEqual(unchanged.body, { added: [], removed: [], upgraded: [], rejected: [] });
  assert.equal(t.services.channels.running('hot')!.loaded, running);

  await root.install('extra', '0.1.0');
  assert.deepEqual((await t.request('POST', '/api/channel/rescan', { as: 'admin' })).body.added, ['extra']);
  await root.remove('extra');
  assert.deepEqual((await t.request('POST', '/api/channel/rescan', { as: 'admin' })).body.removed, ['extra']);
  assert.equal(t.services.channels.get('extra'), undefined);
});

test('enable and disable need channel:update and a registered channel', async () => {
  assert.equal((await t.request('POST', '/api/channel/hot/disable', { as: 'viewer' })).status, 403);
  assert.equal((await t.request('POST', '/api/channel/rescan')).status, 401);
  const unknown = await t.request('POST', '/api/channel/nope/enable', { as: 'admin' });
  assert.equal(unknown.status, 404);
  assert.equal(unknown.body.error.code, 'BOT_ERR_CHANNEL_NOT_FOUND');
  assert.ok(t.services.channels.running('hot'), 'nothing changed');
});
