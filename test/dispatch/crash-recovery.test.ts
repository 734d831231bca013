import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startHostProcess } from '../support/host-process.ts';
import { sampleEvent } from './conversation-harness.ts';
import { crashHostSetup } from './crash-host-setup.ts';
import { type CrashSnapshot, readCrashSnapshot, readReplyRecords, waitUntilFinished } from './crash-snapshot.ts';
import { postSignedWebhook, setUpGreetingOverHttp } from './greeting-over-http.ts';

// A real `npm start` on this file's database, killed with SIGKILL (no handler, no graceful
// close) right after it acknowledged the last webhook of a batch, then started again.
const SUBSCRIBERS = ['ada', 'bob', 'cyd', 'dee', 'eve', 'fay'];
const ROUNDS = 5;
// A slow platform: each send is held this long, so sends are in flight when the host dies.
const { database, platform, hostEnv, authSecret: AUTH_SECRET } = await crashHostSetup({ platformDelayMs: 100 });

const eventIdOf = (subscriber: string, round: number) => `${subscriber}-${round}`;
const nameOf = (subscriber: string, round: number) => `${subscriber[0]!.toUpperCase()}${subscriber.slice(1)}${round}`;
/** The greeting workflow answers "my name is X" with "Hello X!": each reply names its event. */
const replyOf = (subscriber: string, round: number) => `Hello ${nameOf(subscriber, round)}!`;
const EVENT_IDS = SUBSCRIBERS.flatMap((subscriber) => Array.from({ length: ROUNDS }, (_, round) => eventIdOf(subscriber, round)));

test('a host killed (SIGKILL) right after acknowledging a batch processes every acknowledged event once after restart, with no duplicate reply', async (t) => {
  const crashed = await startHostProcess(hostEnv);
  t.after(() => crashed.kill());
  const { sourceRef } = await setUpGreetingOverHttp({ url: crashed.url, authSecret: AUTH_SECRET }, platform.url);
  // One webhook per round, each carrying the next message of every subscriber: a round is
  // acknowledged before the next is posted, so each conversation's order is the round order.
  for (let round = 0; round < ROUNDS; round += 1) {
    const events = SUBSCRIBERS.map((subscriber) => sampleEvent(eventIdOf(subscriber, round), subscriber, `my name is ${nameOf(subscriber, round)}`));
    assert.equal(await postSignedWebhook(crashed.url, sourceRef, events), 200);
  }
  await crashed.kill();

  const atKill = await readCrashSnapshot(database.db, EVENT_IDS, platform.received.length);
  reportSnapshot(t, atKill);
  assert.equal(atKill.statuses.size, EVENT_IDS.length, 'every acknowledged event was stored before its 200');
  assert.ok(atKill.unfinished > 0, 'the kill interrupted work: otherwise this test proves nothing');

  const restarted = await startHostProcess(hostEnv);
  try {
    await waitUntilFinished(database.db, EVENT_IDS, 40_000);
  } finally {
    await restarted.stop('SIGTERM');
  }

  const finished = await readCrashSnapshot(database.db, EVENT_IDS, platform.received.length);
  assert.deepEqual([...finished.statuses.values()].filter((status) => status !== 'done'), [], 'every acknowledged event ends done');
  // The events the killed host was running stayed claimed until its claims ran out (the lease),
  // then the restarted host took each over, ending the runs it had left.
  const runningAtKill = [...atKill.statuses].filter(([, status]) => status === 'running').map(([eventId]) => eventId);
  assert.ok(runningAtKill.length > 0, 'the kill left events running under its claims');
  for (const eventId of runningAtKill) assert.ok(finished.attempts.get(eventId)! > 1, `${eventId}: claimed again after the kill`);
  assert.deepEqual([finished.runningRuns, finished.abandonedRuns], [0, atKill.runningRuns], 'every run the killed host left running was ended as abandoned');
  const records = await readReplyRecords(database.db);
  assert.deepEqual(records.map((record) => record.eventId).sort(), [...EVENT_IDS].sort(), 'one reply record per event, no more');
  assert.deepEqual(records.filter((record) => record.status === 'pending' || record.status === 'failed'), [], 'no reply is left pending or failed');

  // A send in flight at the kill (recorded `pending`, not yet marked) is sent again with the same
  // Idempotency-Key: the sample channel declares `idempotentSends`, and the platform drops a key
  // it has answered. So every reply ends `sent`, and only those keys may arrive twice on the wire.
  assert.deepEqual(records.filter((record) => record.status !== 'sent').map((record) => record.eventId), [], 'every reply is marked sent');
  const arrivals = new Map<string, number>();
  for (const message of platform.received) arrivals.set(message.idempotencyKey!, (arrivals.get(message.idempotencyKey!) ?? 0) + 1);
  const repeated = [...arrivals].filter(([, count]) => count > 1).map(([key]) => key);
  t.diagnostic(`sends repeated on the wire after the restart (dropped by the platform): ${repeated.length}`);
  for (const key of repeated) {
    assert.ok(atKill.pendingSendKeys.includes(key), `${key} arrived twice but was not in flight at the kill`);
    assert.equal(arrivals.get(key), 2, `${key}: sent again once, not more`);
  }

  const delivered = platform.delivered();
  const keys = new Map(records.map((record) => [record.sendKey, record]));
  for (const message of delivered) {
    const record = keys.get(message.idempotencyKey!);
    assert.ok(record, `the platform got a send key the outbox never recorded: ${message.idempotencyKey}`);
    const [subscriber, round] = record.eventId.split('-') as [string, string];
    assert.equal(message.body.message.text, replyOf(subscriber, Number(round)), `${record.eventId}: the reply carries its own event's answer`);
  }
  assert.equal(delivered.length, EVENT_IDS.length, 'every acknowledged event got exactly one reply');
  for (const subscriber of SUBSCRIBERS) {
    const got = delivered.filter((message) => message.body.recipient.id === subscriber).map((message) => message.body.message.text);
    assert.deepEqual(got, Array.from({ length: ROUNDS }, (_, round) => replyOf(subscriber, round)), `${subscriber}: replies in message order`);
  }
});

function reportSnapshot(t: { diagnostic(message: string): void }, snapshot: CrashSnapshot): void {
  const counts = new Map<string, number>();
  for (const status of snapshot.statuses.values()) counts.set(status, (counts.get(status) ?? 0) + 1);
  t.diagnostic(`at the kill: events ${JSON.stringify(Object.fromEntries(counts))}, sends in flight ${snapshot.pendingSendKeys.length} (recorded ${snapshot.pendingAgesMs.join(', ')} ms before), replies at the platform ${snapshot.repliesReceived}, runs left running ${snapshot.runningRuns}`);
}
