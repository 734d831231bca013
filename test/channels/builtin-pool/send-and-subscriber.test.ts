import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { StdOutgoingMessageEnvelope } from '@bot-ai/api';
import { PLAIN_EVENT, rejectsWithCode, SOURCE, startFixturePool, webhookRequest } from './fixture-pool.ts';

test('send rebuilds the event bound to its source and returns the platform mid', async (t) => {
  const sandbox = await startFixturePool(t, 'echo');
  const result = await sandbox.send(PLAIN_EVENT, SOURCE, { type: 'text', data: { text: 'pong' } }, { idempotencyKey: 'k1' });
  assert.deepEqual(result, { mid: 'user-1:k1:pong' });
});

test('a PlatformResponseError keeps its name, message and code across the thread boundary', async (t) => {
  const sandbox = await startFixturePool(t, 'echo');
  const sent = sandbox.send(PLAIN_EVENT, SOURCE, { type: 'text', data: { text: 'fail' } }, { idempotencyKey: 'k2' });
  const error = await rejectsWithCode(sent, 'BOT_ERR_PLUGIN_THREW');
  assert.equal(error.name, 'SandboxError');
  assert.match(error.message, /doSendMessage\(\) threw PlatformResponseError: The platform answered HTTP 502: bad gateway/);
  const cause = error.cause as Error & { code?: string };
  assert.deepEqual([cause.name, cause.message, cause.code], ['PlatformResponseError', 'The platform answered HTTP 502: bad gateway', 'BOT_ERR_CHANNEL_PLATFORM_STATUS']);
});

test('an unsupported outgoing type fails with the SDK code as the cause', async (t) => {
  const sandbox = await startFixturePool(t, 'echo');
  const envelope: StdOutgoingMessageEnvelope = { type: 'carousel', data: { elements: [{ title: 'a' }] } };
  const error = await rejectsWithCode(sandbox.send(PLAIN_EVENT, SOURCE, envelope, { idempotencyKey: 'k3' }), 'BOT_ERR_PLUGIN_THREW');
  assert.equal((error.cause as { code?: string }).code, 'BOT_ERR_CHANNEL_UNSUPPORTED_FORMAT');
});

test('subscriberData returns the validated subscriber with dates as ISO strings', async (t) => {
  const sandbox = await startFixturePool(t, 'echo');
  const subscriber = await sandbox.subscriberData(PLAIN_EVENT, SOURCE);
  assert.equal(subscriber.foreignId, 'user-1');
  assert.equal(subscriber.lastvisit, '2026-01-02T03:04:05.000Z');
  assert.equal(subscriber.assignedAt, null);
  assert.deepEqual(subscriber.channel, { name: 'echo', greeting: 'hello' });
  assert.equal(subscriber.source, SOURCE.id);
});

test('a send that times out while queued behind a busy worker says it never reached the plugin', async (t) => {
  const sandbox = await startFixturePool(t, 'echo', { callTimeoutMs: 600 });
  const message = { messages: [{ id: 'm1', from: 'u1', text: 'slow', at: '2026-01-01T00:00:00.000Z' }] };
  // The only worker is held by a decode that runs past its own limit.
  // Queued at once behind it: both time out together, long before a replacement worker could load.
  const blocker = sandbox.receiveWebhook(webhookRequest(message, { headers: { 'x-delay-ms': '5000' } }), SOURCE);
  const queued = sandbox.send(PLAIN_EVENT, SOURCE, { type: 'text', data: { text: 'pong' } }, { idempotencyKey: 'k-queued' });
  await rejectsWithCode(blocker, 'BOT_ERR_PLUGIN_CALL_TIMEOUT');
  await rejectsWithCode(queued, 'BOT_ERR_PLUGIN_SEND_NOT_STARTED');
  // The replacement worker may take longer than the 600 ms limit to load on a busy machine.
  await sandbox.ready();
  const after = await sandbox.send(PLAIN_EVENT, SOURCE, { type: 'text', data: { text: 'pong' } }, { idempotencyKey: 'k-after' });
  assert.match(after.mid, /k-after/);
});
