import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import type { ChannelSource } from '@bot-ai/api';
import { isPublicAddress } from '../../host/egress/is-public-address.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { echo, PROBE_EVENT, resolverFor, startListener, TEST_LIMITS } from './egress-fixtures.ts';

// The whole way: a plugin's this.http in its sandbox worker, the host bridge, the channel's
// egress rules (its package.json's bot.egress, its sources' x-egress settings), the client.
const APP_ROOT = fileURLToPath(new URL('../fixtures/plugin-roots/egress', import.meta.url));
const SANDBOX = { callTimeoutMs: 5_000, maxHeapMb: 64, maxThreads: 1, maxQueue: 10, idleTimeoutMs: 1_000 };
const DECLARED = 'api.example.test';

/** Flipped by the one test that lets loopback stand in for the declared host's public address. */
let loopbackCountsAsPublic = false;

let app: TestApp;
before(async () => {
  app = await createTestApp({
    channels: { appRoot: APP_ROOT, sandbox: SANDBOX },
    egress: {
      limits: TEST_LIMITS,
      resolve: resolverFor({ [DECLARED]: ['127.0.0.1'] }),
      isPublicAddress: (address) => (loopbackCountsAsPublic && address === '127.0.0.1') || isPublicAddress(address),
    },
  });
  await app.services.channels.load();
});
after(() => app.close());

async function createSource(name: string, apiUrl: string): Promise<ChannelSource> {
  const response = await app.request('POST', '/api/sources', { as: 'admin', body: { name, channel: 'egress_probe', settings: { api_url: apiUrl } } });
  assert.equal(response.status, 201, response.text);
  const { id, ref, settings, active } = response.body;
  return { id, ref, settings, active };
}

/** Has the plugin POST to `url` on behalf of `source`; resolves to its mid, `<status> <body>`. */
async function sendThroughPlugin(source: ChannelSource, url: string): Promise<string | undefined> {
  const result = await app.services.channels.call('egress_probe', (sandbox) => sandbox.send(PROBE_EVENT, source, { type: 'text', data: { text: url } }, { idempotencyKey: 'k' }));
  return result.mid;
}

/** Awaits the send's failure and returns the code of the plugin's error (the egress refusal). */
async function refusalOf(sending: Promise<unknown>): Promise<string | undefined> {
  const error = (await sending.then(
    () => assert.fail('expected the send to fail'),
    (reason: unknown) => reason,
  )) as { code?: string; cause?: { code?: string; name?: string } };
  assert.equal(error.code, 'BOT_ERR_PLUGIN_THREW');
  assert.equal(error.cause?.name, 'EgressError');
  return error.cause?.code;
}

async function refusedCount(code: string): Promise<number> {
  const metric = await app.services.metrics.egressRefused.get();
  return metric.values.find((value) => value.labels.channel === 'egress_probe' && value.labels.code === code)?.value ?? 0;
}

describe("a sandboxed plugin's fetch", () => {
  test('the channel is registered with the hosts its package declares', () => {
    assert.deepEqual(app.services.channels.get('egress_probe')?.egress, [DECLARED]);
  });

  test("reaches the x-egress origin of the source it serves, a loopback listener", async (t) => {
    const platform = await startListener(t, echo);
    const source = await createSource('Probe A', `${platform.origin}/api`);
    const mid = await sendThroughPlugin(source, `${platform.origin}/api/messages`);
    assert.equal(mid, `200 ${JSON.stringify({ method: 'POST', url: '/api/messages', body: 'probe' })}`);
  });

  test("is refused the x-egress origin of another source: the rules are the served source's", async (t) => {
    const platform = await startListener(t, echo);
    await createSource('Probe B owner', `${platform.origin}/api`);
    const other = await createSource('Probe B other', 'http://127.0.0.1:9/api');
    assert.equal(await refusalOf(sendThroughPlugin(other, `${platform.origin}/api/messages`)), 'BOT_ERR_EGRESS_HOST_NOT_ALLOWED');
    assert.equal(platform.received.length, 0);
  });

  test('is refused an undeclared host, and the host counts the refusal by channel and code', async () => {
    const source = await createSource('Probe C', 'http://127.0.0.1:9/api');
    const before = await refusedCount('BOT_ERR_EGRESS_HOST_NOT_ALLOWED');
    assert.equal(await refusalOf(sendThroughPlugin(source, 'https://undeclared.example.test/x')), 'BOT_ERR_EGRESS_HOST_NOT_ALLOWED');
    assert.equal(await refusedCount('BOT_ERR_EGRESS_HOST_NOT_ALLOWED'), before + 1);
  });

  test('is refused a declared host whose name resolves to a private address', async (t) => {
    const platform = await startListener(t, echo);
    const source = await createSource('Probe D', 'http://127.0.0.1:9/api');
    assert.equal(await refusalOf(sendThroughPlugin(source, `http://${DECLARED}:${platform.port}/x`)), 'BOT_ERR_EGRESS_ADDRESS_NOT_PUBLIC');
    assert.equal(platform.received.length, 0);
  });

  test('reaches a declared host on a public address (loopback counting as public in this test only)', async (t) => {
    loopbackCountsAsPublic = true;
    t.after(() => (loopbackCountsAsPublic = false));
    const platform = await startListener(t, echo);
    const source = await createSource('Probe E', 'http://127.0.0.1:9/api');
    const mid = await sendThroughPlugin(source, `http://${DECLARED}:${platform.port}/bot1/sendMessage`);
    assert.match(mid ?? '', /^200 .*\/bot1\/sendMessage/);
    assert.equal(platform.received[0]?.headers.host, `${DECLARED}:${platform.port}`);
  });

  test("is refused the origin of an x-egress default: a source created or changed without the setting stores none", async () => {
    const created = await app.request('POST', '/api/sources', { as: 'admin', body: { name: 'Probe default', channel: 'egress_probe', settings: {} } });
    assert.equal(created.status, 201, created.text);
    const stored = async () => (await app.database.db('sources').where({ id: created.body.id }).first()).settings as Record<string, unknown>;
    assert.deepEqual(await stored(), {}, 'the default http://127.0.0.1:3000/api was stored');
    const { id, ref, settings, active } = created.body;
    const source: ChannelSource = { id, ref, settings, active };
    assert.equal(await refusalOf(sendThroughPlugin(source, 'http://127.0.0.1:3000/api/messages')), 'BOT_ERR_EGRESS_HOST_NOT_ALLOWED');
    const patched = await app.request('PATCH', `/api/sources/${id}`, { as: 'admin', body: { settings: { api_url: null } } });
    assert.equal(patched.status, 200, patched.text);
    assert.deepEqual(await stored(), {}, 'a setting returned to its default stores none');
  });

  test('is refused a redirect out of the rules', async (t) => {
    const elsewhere = await startListener(t, echo);
    const platform = await startListener(t, (_request, res) => res.writeHead(302, { location: `${elsewhere.origin}/` }).end());
    const source = await createSource('Probe F', `${platform.origin}/api`);
    assert.equal(await refusalOf(sendThroughPlugin(source, `${platform.origin}/api/messages`)), 'BOT_ERR_EGRESS_REDIRECT_REFUSED');
    assert.equal(elsewhere.received.length, 0);
  });
});
