/**
 * `POST /api/sources/:id/connect`: the channel's connect step from the panel, with the source's
 * webhook URL. The fixture channel `platform_calls` has one and reaches "the platform", a local
 * listener, at its source's `api_url` (an x-egress setting); `quiet` has none.
 */
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { echo, startListener } from '../egress/egress-fixtures.ts';
import { expectCreated } from '../support/expect-created.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';

const APP_ROOT = fileURLToPath(new URL('../fixtures/plugin-roots/platform-calls', import.meta.url));
const SANDBOX = { callTimeoutMs: 5_000, maxHeapMb: 64, maxThreads: 1, maxQueue: 10, idleTimeoutMs: 10_000 };
const TOKEN = 'tok-5f1c2e9a7b3d';

let app: TestApp;
before(async () => {
  app = await createTestApp({ channels: { appRoot: APP_ROOT, sandbox: SANDBOX } });
  await app.services.channels.load();
});
after(() => app.close());

let sources = 0;
async function createSource(channel: string, settings: Record<string, unknown>): Promise<{ id: string; webhookUrl: string }> {
  sources += 1;
  return (await expectCreated(app, '/api/sources', { name: `connect ${sources}`, channel, settings })) as { id: string; webhookUrl: string };
}

const connect = (id: string, as = 'admin') => app.request('POST', `/api/sources/${id}/connect`, { as });

describe('POST /api/sources/:id/connect', () => {
  test('the channel list says which channels have a connect step', async () => {
    const response = await app.request('GET', '/api/channel', { as: 'viewer' });
    const connectable = Object.fromEntries(response.body.items.map((item: { name: string; connectable: boolean }) => [item.name, item.connectable]));
    assert.equal(connectable.platform_calls, true);
    assert.equal(connectable.quiet, false);
  });

  test("calls the channel's connect with the webhook URL the source page shows, and answers its result", async (t) => {
    const platform = await startListener(t, echo);
    const source = await createSource('platform_calls', { api_url: platform.origin, token: TOKEN });
    const response = await connect(source.id);
    assert.equal(response.status, 200, response.text);
    assert.match(source.webhookUrl, /\/api\/webhook\/[^/]+$/);
    assert.deepEqual(response.body, { connected: true, message: `Webhook set to ${source.webhookUrl}`, instructions: 'name: bot\nurl: here' });
    assert.deepEqual(platform.received.map((request) => [request.url, JSON.parse(request.body)]), [['/setWebhook', { url: source.webhookUrl }]]);
  });

  test('a channel without a connect step answers 409 BOT_ERR_SOURCE_CONNECT_UNSUPPORTED', async () => {
    const source = await createSource('quiet', {});
    const response = await connect(source.id);
    assert.equal(response.status, 409, response.text);
    assert.equal(response.body.error.code, 'BOT_ERR_SOURCE_CONNECT_UNSUPPORTED');
  });

  test("a ChannelError answers 502 with the channel's code and its words, the source's secrets masked", async () => {
    const source = await createSource('platform_calls', { token: TOKEN, mode: 'refuse' });
    const response = await connect(source.id);
    assert.equal(response.status, 502, response.text);
    assert.deepEqual(response.body.error, { code: 'BOT_ERR_SOURCE_CONNECT_FAILED', message: 'the platform refused the token ********', details: { code: 'PROBE_ERR_REFUSED' } });
    assert.ok(!response.text.includes(TOKEN));
  });

  test("a result's words are shown with the source's secrets masked too (a platform's refusal may quote the request path)", async () => {
    const source = await createSource('platform_calls', { token: TOKEN, mode: 'quote' });
    const response = await connect(source.id);
    assert.equal(response.status, 200, response.text);
    assert.deepEqual(response.body, { connected: false, message: 'refused: Cannot POST /bot********/setWebhook', instructions: 'token=********' });
  });

  test("any other throw answers 502 with its code only: the plugin's words are not shown", async () => {
    const source = await createSource('platform_calls', { token: TOKEN, mode: 'throw' });
    const response = await connect(source.id);
    assert.equal(response.status, 502, response.text);
    assert.equal(response.body.error.code, 'BOT_ERR_SOURCE_CONNECT_FAILED');
    assert.deepEqual(response.body.error.details, { code: 'BOT_ERR_PLUGIN_THREW' });
    assert.ok(!response.text.includes(TOKEN));
  });

  test('a malformed answer answers 502 saying what connect() must return', async () => {
    const source = await createSource('platform_calls', { mode: 'invalid' });
    const response = await connect(source.id);
    assert.equal(response.status, 502, response.text);
    assert.deepEqual(response.body.error.details, { code: 'BOT_ERR_PLUGIN_INVALID_RESULT' });
    assert.match(response.body.error.message, /connect\(\) must return/);
  });

  test('an unknown source answers 404; a viewer may not connect', async () => {
    const source = await createSource('platform_calls', {});
    assert.equal((await connect('00000000-0000-4000-8000-000000000000')).status, 404);
    const refused = await connect(source.id, 'viewer');
    assert.equal(refused.status, 403, refused.text);
  });

  test('a disabled channel answers 503 BOT_ERR_SOURCE_CHANNEL_UNAVAILABLE', async (t) => {
    const source = await createSource('platform_calls', {});
    const disabled = await app.request('POST', '/api/channel/platform_calls/disable', { as: 'admin' });
    assert.equal(disabled.status, 200, disabled.text);
    t.after(() => app.request('POST', '/api/channel/platform_calls/enable', { as: 'admin' }));
    const response = await connect(source.id);
    assert.equal(response.status, 503, response.text);
    assert.equal(response.body.error.code, 'BOT_ERR_SOURCE_CHANNEL_UNAVAILABLE');
  });
});
