import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { signAdminToken } from '../../host/auth/admin-token.ts';
import { UpgradablePluginRoot } from '../channels/hot-enable/upgradable-plugin-root.ts';
import type { HostProcess } from '../support/host-process.ts';
import { HostFleet } from './host-fleet.ts';
import { createTestDatabase, type TestDatabase } from '../support/test-database.ts';

// Two real `npm start` processes on one database and one app root, as two instances sharing a
// deploy: the new channel version is installed on disk once, and one rescan must reach both.
const AUTH_SECRET = 'scale-out-auth-secret-0123456789abcdef-01234';
const CHANNEL = 'hot';

let database: TestDatabase;
let pluginRoot: UpgradablePluginRoot;
let fleet: HostFleet;
let adminToken: string;
let sourceRef: string;
let sourceId: string;
let nextEventId = 0;

before(async () => {
  database = await createTestDatabase();
  pluginRoot = await UpgradablePluginRoot.create();
  await pluginRoot.install(CHANNEL, '1.0.0');
  // Both hosts scan the same app root, as two instances sharing a deploy would.
  fleet = new HostFleet(database.url, AUTH_SECRET, { BOT_APP_ROOT: pluginRoot.dir });
  const first = await fleet.start();
  await fleet.start();
  adminToken = signAdminToken({ sub: 'scale-out', role: 'admin' }, AUTH_SECRET, { ttl: '10m' });
  // The source is created on one host only: the other learns of it from the shared database.
  const created = await adminCall(first, 'POST', '/api/sources', { name: 'Hot', channel: CHANNEL, settings: {} });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  ({ ref: sourceRef, id: sourceId } = created.body as { ref: string; id: string });
});

after(async () => {
  await fleet?.close();
  await database?.close();
  await pluginRoot?.close();
});

test('upgrading a channel on one host takes effect on the other within a second', async (t) => {
  const [first, second] = fleet.hosts as [HostProcess, HostProcess];
  assert.equal(await listedVersion(second), '1.0.0');
  assert.equal(await decodedText(second, 'before'), '1.0.0:before', 'the other host decodes with 1.0.0 before the upgrade');

  await pluginRoot.install(CHANNEL, '2.0.0');
  const rescan = await adminCall(first, 'POST', '/api/channel/rescan');
  // The second's one-second budget starts once the first has switched and announced the rescan.
  const rescannedAt = Date.now();
  assert.equal(rescan.status, 200, JSON.stringify(rescan.body));
  assert.deepEqual((rescan.body as { upgraded: unknown }).upgraded, [{ name: CHANNEL, from: '1.0.0', to: '2.0.0' }]);
  assert.equal(await listedVersion(first), '2.0.0', 'the host that rescanned serves 2.0.0 as it answers');

  const deadline = rescannedAt + 1_000;
  const listed = await valueBy(deadline, '2.0.0', () => listedVersion(second));
  const listedAfterMs = Date.now() - rescannedAt;
  const decoded = await valueBy(deadline, '2.0.0:after', () => decodedText(second, 'after'));
  const decodedAfterMs = Date.now() - rescannedAt;
  t.diagnostic(`the other host listed 2.0.0 after ${listedAfterMs} ms and decoded with it after ${decodedAfterMs} ms`);
  assert.equal(listed, '2.0.0', 'the other host lists 2.0.0 within a second of the rescan');
  assert.equal(decoded, '2.0.0:after', 'the other host decodes with 2.0.0 within a second of the rescan');
});

async function adminCall(host: HostProcess, method: string, route: string, body?: Record<string, unknown>): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${host.url}${route}`, {
    method,
    headers: { authorization: `Bearer ${adminToken}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  return { status: response.status, body: await response.json() };
}

/** The package version the host lists for the channel, as an operator would read it. */
async function listedVersion(host: HostProcess): Promise<string | undefined> {
  const listed = await adminCall(host, 'GET', '/api/channel');
  assert.equal(listed.status, 200, JSON.stringify(listed.body));
  const { items } = listed.body as { items: { name: string; package: { version: string } | null }[] };
  return items.find((channel) => channel.name === CHANNEL)?.package?.version;
}

/**
 * Delivers one webhook to the host and returns the text its channel decoded, as committed to
 * the inbox: each version prefixes the text with itself, so this tells which version served it.
 */
async function decodedText(host: HostProcess, text: string): Promise<string> {
  const eventId = `e${++nextEventId}`;
  const response = await fetch(`${host.url}/api/webhook/${sourceRef}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ id: eventId, text }),
  });
  assert.equal(response.status, 200, await response.text());
  // A 200 means the events are committed, so the row is there to read.
  const row = (await database.db('inbound_events').where({ source_id: sourceId, event_id: eventId }).first()) as { event: { message: { data: { text: string } } } };
  return row.event.message.data.text;
}

/** Calls `read` until it returns `wanted` or `deadline` (a Date.now() time) has passed; returns the last value. */
async function valueBy<T>(deadline: number, wanted: T, read: () => Promise<T>): Promise<T> {
  for (;;) {
    const value = await read();
    if (value === wanted || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
