import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { makeDue, waitForRetry } from '../support/claim-events.ts';
import { ConversationHarness, sampleEvent } from './conversation-harness.ts';

let h: ConversationHarness;
before(async () => {
  h = await ConversationHarness.start();
});
after(() => h.close());

test('a platform answering 429 with Retry-After gets the reply again after that delay, within the same attempt, once', async () => {
  h.platform.failNext.push({ status: 429, headers: { 'retry-after': '1' } });
  const before = h.platform.received.length;
  assert.equal(await h.deliver([sampleEvent('busy-1', 'ria', 'my name is Ria')]), 200);
  const [reply] = (await h.platform.waitFor(before + 1, 15_000)).slice(before);

  assert.equal(reply!.body.message.text, 'Hello Ria!');
  const waited = Date.now() - h.platform.refusedAt.at(-1)!;
  assert.ok(waited >= 950, `sent again ${waited} ms after the 429 asked for 1 s`);
  await h.settled(['busy-1']);
  const [event] = await h.app.database.db('inbound_events').where({ event_id: 'busy-1' }).select('status', 'attempts');
  assert.deepEqual(event, { status: 'done', attempts: 1 }, 'honoured within the run, not by a retry of the event and its own backoff');
  const [record] = await h.app.database.db('outbound_messages').join('inbound_events as e', 'e.id', 'outbound_messages.inbound_event_id').where('e.event_id', 'busy-1').select('outbound_messages.status', 'outbound_messages.attempts');
  assert.deepEqual(record, { status: 'sent', attempts: 2 });
  await new Promise((resolve) => setTimeout(resolve, 200));
  assert.equal(h.platform.received.length, before + 1, 'the reply arrived once');
});

test('a Retry-After longer than the host waits within a run is honoured by the inbox: the event is due then, not after its own sooner backoff', async () => {
  h.platform.failNext.push({ status: 503, headers: { 'retry-after': '1200' } });
  const before = h.platform.received.length;
  const refusedBefore = h.platform.refusedAt.length;
  assert.equal(await h.deliver([sampleEvent('busy-2', 'rob', 'my name is Rob')]), 200);
  // The attempt fails on the 503 and leaves the event queued, due when the platform asked (20
  // minutes), where its own backoff would have tried again after about 2.7 s.
  const due = await waitForRetry(h.app.database.db, 'busy-2', 1, 15_000);
  assert.ok(due.getTime() - Date.now() > 1_190_000, `due in ${due.getTime() - Date.now()} ms, as asked (1,200 s)`);
  // Two of the dispatcher's polls go by without claiming it.
  await new Promise((resolve) => setTimeout(resolve, 400));
  const [waiting] = await h.app.database.db('inbound_events').where({ event_id: 'busy-2' }).select('status', 'attempts');
  assert.deepEqual(waiting, { status: 'queued', attempts: 1 });
  assert.equal(h.platform.refusedAt.length, refusedBefore + 1, 'refused once');
  assert.equal(h.platform.received.length, before, 'nothing sent meanwhile');

  // Time passes (the event is made due now): the reply goes out once, on the event's second attempt.
  await makeDue(h.app.database.db, ['busy-2']);
  const [reply] = (await h.platform.waitFor(before + 1, 20_000)).slice(before);
  assert.equal(reply!.body.message.text, 'Hello Rob!');
  const [event] = (await h.settled(['busy-2'])).values();
  assert.equal(event!.status, 'done');
  const [{ attempts }] = await h.app.database.db('inbound_events').where({ event_id: 'busy-2' }).select('attempts');
  assert.equal(attempts, 2);
});
