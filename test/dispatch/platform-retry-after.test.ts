import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
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
  assert.deepEqual(event, { status: 'done', attempts: 1 }, 'honoured within the run, not by a job retry and its own backoff');
  const [record] = await h.app.database.db('outbound_messages').join('inbound_events as e', 'e.id', 'outbound_messages.inbound_event_id').where('e.event_id', 'busy-1').select('outbound_messages.status', 'outbound_messages.attempts');
  assert.deepEqual(record, { status: 'sent', attempts: 2 });
  await new Promise((resolve) => setTimeout(resolve, 200));
  assert.equal(h.platform.received.length, before + 1, 'the reply arrived once');
});

test('a Retry-After longer than the host waits within a run fails the attempt; the job engine sends it later, once', async () => {
  h.platform.failNext.push({ status: 503, headers: { 'retry-after': '3600' } });
  const before = h.platform.received.length;
  assert.equal(await h.deliver([sampleEvent('busy-2', 'rob', 'my name is Rob')]), 200);
  const [reply] = (await h.platform.waitFor(before + 1, 20_000)).slice(before);
  assert.equal(reply!.body.message.text, 'Hello Rob!');
  const [event] = await h.app.database.db('inbound_events').where({ event_id: 'busy-2' }).select('attempts');
  assert.equal(event.attempts, 2, 'the first attempt failed instead of waiting an hour');
});
