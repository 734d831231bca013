import assert from 'node:assert/strict';
import { Buffer } from 'node:buffer';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import { echoBody, handshakeRequest, SOURCE, startFixturePool, webhookRequest } from './fixture-pool.ts';

test('receiveWebhook decodes plain events from the exact raw bytes, with the source settings', async (t) => {
  const sandbox = await startFixturePool(t, 'echo');
  // Raw bytes that differ from a re-serialised body: only the untouched bytes hash the same.
  const raw = `{ "messages": [ {"id":"evt-1","from":"user-1","text":"hi","at":"2026-03-04T05:06:07.000Z"} ] }\n`;
  const request = webhookRequest(echoBody(), { raw });
  const result = await sandbox.receiveWebhook(request, SOURCE);
  assert.equal(result.outcome, 'accepted');
  assert.deepEqual(result.events, [
    {
      kind: 'message',
      channelName: 'echo',
      rawEvent: echoBody().messages[0],
      channelAttributes: { greeting: 'hello', sha256: createHash('sha256').update(raw).digest('hex'), rawBodyIsBuffer: true },
      occurredAt: '2026-03-04T05:06:07.000Z',
      eventId: 'evt-1',
      senderForeignId: 'user-1',
      message: { type: 'text', data: { text: 'hi' } },
    },
  ]);
  assert.deepEqual(result.response, { statusCode: undefined, body: undefined, headers: {} });
  // The host's own buffer was copied, not transferred away.
  assert.equal(Buffer.from(request.rawBody).toString('utf8'), raw);
});

test('a payload that fails the plugin schema (ZodError) is invalid, status 400', async (t) => {
  const sandbox = await startFixturePool(t, 'echo');
  const result = await sandbox.receiveWebhook(webhookRequest({ messages: 'nope' }), SOURCE);
  assert.equal(result.outcome, 'invalid');
  assert.equal(result.outcome === 'invalid' && result.status, 400);
});

test('a PayloadRejectedError from decode is invalid, status 400, with its code for the logs', async (t) => {
  const sandbox = await startFixturePool(t, 'payload-rejected');
  const result = await sandbox.receiveWebhook(webhookRequest({}), SOURCE);
  assert.deepEqual(result.outcome === 'invalid' && [result.status, result.reason.code], [400, 'BOT_ERR_CHANNEL_PAYLOAD_REJECTED']);
});

test('a verifySignature that throws rejects the webhook with 401 before decode runs', async (t) => {
  const sandbox = await startFixturePool(t, 'signature-throws');
  const result = await sandbox.receiveWebhook(webhookRequest({}), SOURCE);
  assert.equal(result.outcome, 'rejected');
  assert.deepEqual(result.outcome === 'rejected' && [result.status, result.reason.code], [401, 'BOT_ERR_CHANNEL_SIGNATURE_REJECTED']);
  assert.equal('events' in result, false);
});

test('verifyWebhook answers with what the handler wrote (the default: 200 ok)', async (t) => {
  const sandbox = await startFixturePool(t, 'echo');
  const response = await sandbox.verifyWebhook(handshakeRequest({ challenge: 'c1' }), SOURCE);
  assert.deepEqual(response, { statusCode: 200, body: 'ok', headers: { 'content-type': 'text/plain; charset=utf-8' } });
});

test('plugin code sees none of the host environment variables', async (t) => {
  process.env.BOT_SANDBOX_TEST_SECRET = 'hunter2';
  t.after(() => delete process.env.BOT_SANDBOX_TEST_SECRET);
  const sandbox = await startFixturePool(t, 'reads-env');
  const result = await sandbox.receiveWebhook(webhookRequest({}), SOURCE);
  assert.equal(result.outcome, 'accepted');
  assert.deepEqual(result.outcome === 'accepted' && (result.events[0]?.rawEvent as { env: unknown }).env, {});
});

test('the worker sees only the source it serves, without extra fields of the host record', async (t) => {
  const sandbox = await startFixturePool(t, 'reads-env');
  const hostRecord = { ...SOURCE, channelName: 'reads-env', otherSources: [{ id: 'source-2' }] };
  const result = await sandbox.receiveWebhook(webhookRequest({}), hostRecord);
  const seen = result.outcome === 'accepted' && (result.events[0]?.rawEvent as { sourceKeys: string[] }).sourceKeys;
  assert.deepEqual(seen, ['active', 'id', 'ref', 'settings']);
});
