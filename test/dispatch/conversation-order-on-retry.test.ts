import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { makeDue, waitForRetry } from '../support/claim-events.ts';
import { ConversationHarness, sampleEvent } from './conversation-harness.ts';

let h: ConversationHarness;
before(async () => (h = await ConversationHarness.start()));
after(() => h.close());

test("a message whose run failed and waits for its retry holds its conversation's later messages back; other conversations go on", async () => {
  const before = h.platform.received.length;
  const refusedBefore = h.platform.refusedAt.length;
  // The first send fails (no Retry-After): its run fails and the event waits for its retry, about
  // e^1 ≈ 2.7 s later. Its conversation's next messages arrive meanwhile (the first maybe still running).
  h.platform.failNext.push(500);
  assert.equal(await h.deliver([sampleEvent('order-1', 'olga', 'my name is Olga1')]), 200);
  while (h.platform.refusedAt.length === refusedBefore) await new Promise((resolve) => setTimeout(resolve, 20));
  assert.equal(h.platform.received.length, before, 'the refused send is not delivered');
  assert.equal(await h.deliver([sampleEvent('order-2', 'olga', 'my name is Olga2')]), 200);
  assert.equal(await h.deliver([sampleEvent('order-3', 'olga', 'my name is Olga3')]), 200);
  assert.equal(await h.deliver([sampleEvent('other-1', 'pete', 'my name is Pete')]), 200);

  // Pete's reply: the dispatcher has looked at the inbox since Olga's later messages came, and left them.
  await h.platform.waitFor(before + 1, 15_000);
  await waitForRetry(h.app.database.db, 'order-1', 1);
  const waiting = await h.app.database.db('inbound_events').whereIn('event_id', ['order-2', 'order-3']).orderBy('event_id').select('status', 'attempts');
  assert.deepEqual(waiting, [{ status: 'queued', attempts: 0 }, { status: 'queued', attempts: 0 }], 'held back while the first waits');

  // Time passes: the retry is due.
  const claimedBefore = { ...h.dispatcher.claimed };
  await makeDue(h.app.database.db, ['order-1']);
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
  // The retry was claimed by a timer (the poll, since the row was made due; the instance's own
  // retry timer on a machine slow enough to reach it first), the messages behind it each handed
  // on by the statement that ended the one before.
  const claimed = { ...h.dispatcher.claimed };
  for (const trigger of Object.keys(claimed) as (keyof typeof claimed)[]) claimed[trigger] -= claimedBefore[trigger];
  const all = Object.values(claimed).reduce((sum, count) => sum + count, 0);
  assert.deepEqual({ byTimer: claimed.poll + claimed.retry, handoff: claimed.handoff, all }, { byTimer: 1, handoff: 2, all: 3 }, JSON.stringify(claimed));

  // What /metrics tells an operator of this.
  const metrics = await h.app.services.metrics.registry.getSingleMetricAsString('bot_inbound_event_attempts_total');
  for (const outcome of ['done', 'retry']) assert.match(metrics, new RegExp(`outcome="${outcome}"\\} [1-9]`), outcome);
  const sends = await h.app.services.metrics.registry.getSingleMetricAsString('bot_outbound_sends_total');
  assert.match(sends, /result="failed"\} [1-9]/);
  assert.match(sends, /result="sent"\} [1-9]/);
});
