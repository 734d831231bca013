import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { EncodedReply } from '../../../host/channels/calls/frame-delivery.ts';
import { PLAIN_EVENT, rejectsWithCode, SOURCE, startFixturePool } from './fixture-pool.ts';

const SESSION = 'session-1';

test('receiveFrame decodes a frame in the worker into plain events sent by the session', async (t) => {
  const sandbox = await startFixturePool(t, 'websocket-frames');
  const result = await sandbox.receiveFrame({ sessionId: SESSION, data: '{"text":"hi"}' }, SOURCE);
  assert.equal(result.outcome, 'accepted');
  assert.deepEqual(
    result.outcome === 'accepted' && result.events.map(({ eventId, senderForeignId, message }) => ({ eventId, senderForeignId, message })),
    [{ eventId: `${SESSION}:1`, senderForeignId: SESSION, message: { type: 'text', data: { text: 'hi' } } }],
  );
});

test('a frame the channel rejects is invalid, with the reason the client may be shown', async (t) => {
  const sandbox = await startFixturePool(t, 'websocket-frames');
  const result = await sandbox.receiveFrame({ sessionId: SESSION, data: '{"reject":true}' }, SOURCE);
  assert.equal(result.outcome, 'invalid');
  assert.equal(result.outcome === 'invalid' && result.reason.message, 'not a frames frame');
});

test('an event sent by anyone but the frame session is refused, and a plugin throw is a plugin failure', async (t) => {
  const sandbox = await startFixturePool(t, 'websocket-frames');
  const impostor = await rejectsWithCode(sandbox.receiveFrame({ sessionId: SESSION, data: '{"sender":"someone-else"}' }, SOURCE), 'BOT_ERR_PLUGIN_INVALID_RESULT');
  assert.match(impostor.message, /sessionId as the sender/);
  await rejectsWithCode(sandbox.receiveFrame({ sessionId: SESSION, data: '{"crash":true}' }, SOURCE), 'BOT_ERR_PLUGIN_THREW');
});

test('send on a WebSocket channel encodes in the worker and hands the frame to the host delivery', async (t) => {
  const delivered: EncodedReply[] = [];
  const sandbox = await startFixturePool(t, 'websocket-frames', {
    frameDelivery: { deliver: async (reply) => (delivered.push(reply), { mid: 'web:1' }) },
  });
  const result = await sandbox.send(PLAIN_EVENT, SOURCE, { type: 'text', data: { text: 'pong' } }, { idempotencyKey: 'k1' });
  assert.deepEqual(result, { mid: 'web:1' });
  assert.equal(delivered.length, 1);
  assert.deepEqual([delivered[0]!.frame, delivered[0]!.idempotencyKey, delivered[0]!.event.eventId], ['{"shown":"pong"}', 'k1', PLAIN_EVENT.eventId]);
});

test('a WebSocket send without a host delivery, and a frame for an HTTP channel, are unsupported calls', async (t) => {
  const frames = await startFixturePool(t, 'websocket-frames');
  await rejectsWithCode(frames.send(PLAIN_EVENT, SOURCE, { type: 'text', data: { text: 'pong' } }, { idempotencyKey: 'k2' }), 'BOT_ERR_PLUGIN_CALL_UNSUPPORTED');
  const http = await startFixturePool(t, 'echo');
  await rejectsWithCode(http.receiveFrame({ sessionId: SESSION, data: '{}' }, SOURCE), 'BOT_ERR_PLUGIN_CALL_UNSUPPORTED');
});
