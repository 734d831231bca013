import assert from 'node:assert/strict';
import { test } from 'node:test';
import { echoBody, rejectsWithCode, SOURCE, startFixturePool, webhookRequest } from './fixture-pool.ts';

const slowRequest = (delayMs: number, text = 'slow') => webhookRequest(echoBody(text), { headers: { 'x-delay-ms': String(delayMs) } });

test('close() waits for a call in flight, then refuses new calls', async (t) => {
  const sandbox = await startFixturePool(t, 'echo');
  const inFlight = sandbox.receiveWebhook(slowRequest(200), SOURCE);
  const closed = sandbox.close();
  const result = await inFlight;
  assert.equal(result.outcome, 'accepted');
  await closed;
  await rejectsWithCode(sandbox.describe(), 'BOT_ERR_PLUGIN_SANDBOX_CLOSED');
});

test('a call beyond the bounded queue is refused with BOT_ERR_PLUGIN_QUEUE_FULL', async (t) => {
  const sandbox = await startFixturePool(t, 'echo', { maxThreads: 1, maxQueue: 1 });
  const running = sandbox.receiveWebhook(slowRequest(200, 'first'), SOURCE);
  const queued = sandbox.receiveWebhook(slowRequest(0, 'second'), SOURCE);
  await rejectsWithCode(sandbox.receiveWebhook(slowRequest(0, 'third'), SOURCE), 'BOT_ERR_PLUGIN_QUEUE_FULL');
  assert.deepEqual([(await running).outcome, (await queued).outcome], ['accepted', 'accepted']);
});
