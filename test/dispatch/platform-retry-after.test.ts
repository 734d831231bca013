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

test('a Retry-After longer than the host waits within a run is honoured by the job engine: the event is queued for then, not for its own sooner backoff', async () => {
  h.platform.failNext.push({ status: 503, headers: { 'retry-after': '1200' } });
  const before = h.platform.received.length;
  const refusedBefore = h.platform.refusedAt.length;
  assert.equal(await h.deliver([sampleEvent('busy-2', 'rob', 'my name is Rob')]), 200);
  const jobs = () => h.app.database.db.raw<{ rows: { run_at: Date; attempts: number }[] }>(
    `SELECT j.run_at, j.attempts FROM graphile_worker._private_jobs AS j
     JOIN inbound_events AS e ON e.id = (j.payload->>'inboundEventId')::uuid WHERE e.event_id = 'busy-2'`,
  );
  // The attempt fails on the 503 and leaves one job, due when the platform asked (20 minutes),
  // where graphile-worker's own backoff would have tried again after about 2.7 s.
  let due: Date | undefined;
  for (const deadline = Date.now() + 15_000; due === undefined && Date.now() < deadline; await new Promise((resolve) => setTimeout(resolve, 50))) {
    const { rows } = await jobs();
    const [event] = await h.app.database.db('inbound_events').where({ event_id: 'busy-2' }).select('status', 'attempts');
    if (rows.length === 1 && rows[0]!.attempts === 0 && event.status === 'queued' && event.attempts === 1) due = rows[0]!.run_at;
  }
  assert.ok(due, 'the event waits in a new job');
  assert.ok(due.getTime() - Date.now() > 1_190_000, `due in ${due.getTime() - Date.now()} ms, as asked (1,200 s)`);
  assert.equal(h.platform.refusedAt.length, refusedBefore + 1, 'refused once');
  assert.equal(h.platform.received.length, before, 'nothing sent meanwhile');

  // Time passes (the job is made due now): the reply goes out once, on the event's second attempt.
  await h.app.database.db.raw(`UPDATE graphile_worker._private_jobs SET run_at = now() WHERE run_at > now() + interval '10 minutes'`);
  const [reply] = (await h.platform.waitFor(before + 1, 20_000)).slice(before);
  assert.equal(reply!.body.message.text, 'Hello Rob!');
  const [event] = (await h.settled(['busy-2'])).values();
  assert.equal(event!.status, 'done');
  const [{ attempts }] = await h.app.database.db('inbound_events').where({ event_id: 'busy-2' }).select('attempts');
  assert.equal(attempts, 2);
});
