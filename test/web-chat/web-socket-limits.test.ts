import assert from 'node:assert/strict';
import { once } from 'node:events';
import { after, before, test } from 'node:test';
import WebSocket from 'ws';
import { listen } from '../../host/http/listen.ts';
import { createWebSocketGateway } from '../../host/websockets/create-websocket-gateway.ts';
import { WebSocketGateway } from '../../host/websockets/websocket-gateway.ts';
import { ChatClient, upgradeStatus } from './chat-client.ts';
import { expectCreated, WebChatHarness } from './web-chat-harness.ts';

// What the socket gateway refuses and bounds: upgrades, rates, sizes, dead peers, failed commits, shutdown.
let harness: WebChatHarness;
before(async () => {
  harness = await WebChatHarness.start();
});
after(() => harness.close());

test('upgrades are refused for unknown sources, inactive sources and HTTP channels', async () => {
  const inactive = await expectCreated(harness.app, '/api/sources', { name: 'Closed chat', channel: 'web', settings: {}, active: false });
  const webhook = await expectCreated(harness.app, '/api/sources', { name: 'Webhook platform', channel: 'sample', settings: {} });
  const cases = [
    ['no-such-source', 404, 'BOT_ERR_WS_SOURCE_UNKNOWN'],
    [inactive.ref, 403, 'BOT_ERR_WS_SOURCE_INACTIVE'],
    [webhook.ref, 400, 'BOT_ERR_WS_NOT_WEBSOCKET_CHANNEL'],
  ] as const;
  for (const [ref, status, code] of cases) {
    const answer = await upgradeStatus(harness.socketUrl(ref as string));
    assert.equal(answer.status, status, String(ref));
    assert.equal(JSON.parse(answer.body).error.code, code);
  }
  assert.equal((await upgradeStatus(harness.socketUrl())).status, 101);
});

test('frames beyond the rate limit get an error frame, and a frame over the size limit closes the socket with 1009', async () => {
  const client = await ChatClient.connect(harness.socketUrl(), false);
  for (let index = 0; index < 25; index++) client.send('not json');
  const codes: string[] = [];
  for (let index = 0; index < 25; index++) codes.push((await client.next('error')).code);
  assert.equal(codes.filter((code) => code === 'BOT_ERR_WS_FRAME_MALFORMED').length, 20, 'a burst of 20 is handled');
  assert.equal(codes.filter((code) => code === 'BOT_ERR_WS_RATE_LIMITED').length, 5);
  client.send('x'.repeat(17 * 1024));
  assert.equal((await client.closedByHost()).code, 1009);
});

test('a socket whose source is deactivated is closed with 4403 at its next frame', async () => {
  const source = await expectCreated(harness.app, '/api/sources', { name: 'Soon closed chat', channel: 'web', settings: {} });
  const client = await ChatClient.connect(harness.socketUrl(source.ref as string));
  await client.next('session');
  const patched = await harness.app.request('PATCH', `/api/sources/${source.id}`, { as: 'admin', body: { active: false } });
  assert.equal(patched.status, 200, patched.text);
  client.say('anyone there?');
  assert.deepEqual(await client.closedByHost(), { code: 4403, reason: 'BOT_ERR_WS_SOURCE_INACTIVE' });
});

test('a socket that stops answering pings is dropped; one that answers stays', async () => {
  const server = await listen(harness.app.app.callback(), 0, '127.0.0.1');
  const gateway = createWebSocketGateway(harness.app.services, { pingIntervalMs: 50 });
  gateway.attach(server);
  const url = `ws://127.0.0.1:${(server.address() as { port: number }).port}/api/ws/${harness.source.ref}`;
  const silent = new WebSocket(url, { autoPong: false });
  const lively = new WebSocket(url);
  try {
    await Promise.all([once(silent, 'open'), once(lively, 'open')]);
    const [code] = (await once(silent, 'close')) as [number];
    assert.equal(code, 1006, 'terminated without a close frame');
    assert.equal(lively.readyState, WebSocket.OPEN);
  } finally {
    lively.close();
    await gateway.close();
    await new Promise((resolve) => server.close(resolve));
  }
});

test('a message that cannot be committed gets an error frame with its id and no ack; the socket stays usable', async () => {
  const { services } = harness.app;
  let down = true;
  const inbox = { commit: (commit: Parameters<typeof services.inbox.commit>[0]) => (down ? Promise.reject(new Error('database down')) : services.inbox.commit(commit)) };
  const gateway = new WebSocketGateway({ ...services.webChat, sources: services.sourceCache, channels: services.channels, inbox, logger: services.logger, rateLimit: { perSecond: 5, burst: 20 } });
  const server = await listen(harness.app.app.callback(), 0, '127.0.0.1');
  gateway.attach(server);
  const client = await ChatClient.connect(`ws://127.0.0.1:${(server.address() as { port: number }).port}/api/ws/${harness.source.ref}`);
  try {
    await client.next('session');
    const id = client.say('hello');
    assert.deepEqual(await client.next('error'), { type: 'error', code: 'BOT_ERR_WS_UNAVAILABLE', message: 'The message could not be stored; send it again', id });
    down = false;
    client.say('hello', id);
    assert.deepEqual(await client.next('ack'), { type: 'ack', id, duplicate: false });
  } finally {
    await client.close();
    await gateway.close();
    await new Promise((resolve) => server.close(resolve));
  }
});

test('closing the gateway (host shutdown) closes open sockets with 1001 and refuses new ones', async () => {
  const server = await listen(harness.app.app.callback(), 0, '127.0.0.1');
  const gateway = createWebSocketGateway(harness.app.services);
  gateway.attach(server);
  const url = `ws://127.0.0.1:${(server.address() as { port: number }).port}/api/ws/${harness.source.ref}`;
  const client = await ChatClient.connect(url);
  try {
    await client.next('session');
    await gateway.close();
    assert.equal((await client.closedByHost()).code, 1001);
    assert.equal((await upgradeStatus(url)).status, 503);
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
});
