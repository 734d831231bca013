import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { ConversationHarness, sampleEvent } from './conversation-harness.ts';

let h: ConversationHarness;
before(async () => (h = await ConversationHarness.start()));
after(() => h.close());

test("a message whose run failed and waits for its retry holds its conversation's later messages back; other conversations go on", async () => {
  const before = h.platform.received.length;
  const refusedBefore = h.platform.refusedAt.length;
  // The first send fails (no Retry-After): its run fails and the event waits for the job's retry,
  // about e^1 ≈ 2.7 s later. graphile-worker would run the conversation's next job meanwhile.
  h.platform.failNext.push(500);
  assert.equal(await h.deliver([sampleEvent('order-1', 'olga', 'my name is Olga1')]), 200);
  while (h.platform.refusedAt.length === refusedBefore) await new Promise((resolve) => setTimeout(resolve, 20));
  assert.equal(h.platform.received.length, before, 'the refused send is not delivered');
  assert.equal(await h.deliver([sampleEvent('order-2', 'olga', 'my name is Olga2')]), 200);
  assert.equal(await h.deliver([sampleEvent('order-3', 'olga', 'my name is Olga3')]), 200);
  assert.equal(await h.deliver([sampleEvent('other-1', 'pete', 'my name is Pete')]), 200);

  const settled = await h.settled(['order-1', 'order-2', 'order-3', 'other-1'], 30_000);
  assert.deepEqual([...settled.values()].map((row) => row.status), ['done', 'done', 'done', 'done']);
  const delivered = h.platform.delivered().slice(before);
  const toOlga = delivered.filter((message) => message.body.recipient.id === 'olga').map((message) => message.body.message.text);
  assert.deepEqual(toOlga, ['Hello Olga1!', 'Hello Olga2!', 'Hello Olga3!'], 'each reply after the one before, composed from its own message');
  const toPete = delivered.filter((message) => message.body.recipient.id === 'pete').map((message) => message.body.message.text);
  assert.deepEqual(toPete, ['Hello Pete!']);
  assert.ok(
    delivered.findIndex((message) => message.body.recipient.id === 'pete') < delivered.findIndex((message) => message.body.message.text === 'Hello Olga1!'),
    'another conversation is not held back by the retry',
  );

  const attempts = await h.app.database.db('inbound_events').whereIn('event_id', ['order-1', 'order-2', 'order-3']).orderBy('event_id').pluck('attempts');
  assert.deepEqual(attempts, [2, 1, 1], 'waiting behind the retry used none of the later messages’ attempts');

  // What /metrics tells an operator of this.
  const metrics = await h.app.services.metrics.registry.getSingleMetricAsString('bot_inbound_event_attempts_total');
  for (const outcome of ['done', 'retry', 'held_back']) assert.match(metrics, new RegExp(`outcome="${outcome}"\\} [1-9]`), outcome);
  const sends = await h.app.services.metrics.registry.getSingleMetricAsString('bot_outbound_sends_total');
  assert.match(sends, /result="failed"\} [1-9]/);
  assert.match(sends, /result="sent"\} [1-9]/);
});
