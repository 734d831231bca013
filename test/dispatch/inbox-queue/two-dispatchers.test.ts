import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Knex } from 'knex';
import pino from 'pino';
import { createKnex } from '../../../host/db/create-knex.ts';
import { Dispatcher } from '../../../host/dispatch/dispatcher.ts';
import { insertInboxRows } from '../../../host/inbox/insert-inbox-rows.ts';
import { createTestDatabase, type TestDatabase } from '../../support/test-database.ts';
import { insertSource } from './queued-events.ts';
import { RecordingProcessor, RunLog, type Run } from './recording-processor.ts';

// Two dispatchers on one database, each with a pool of its own, as two hosts would be: the
// conversations' messages are committed interleaved while both claim, and each event runs once,
// each conversation one event at a time in arrival order, whichever instance runs it, none
// waiting for a timer (each polls once a minute, past the test's deadline).

const CONVERSATIONS = 20;
const MESSAGES = 10;
const LEASE_MS = 30_000;

let database: TestDatabase;
let otherPool: Knex;
let sourceId: string;
before(async () => {
  database = await createTestDatabase();
  otherPool = createKnex({ url: database.url });
  sourceId = await insertSource(database.db);
});
after(async () => {
  await otherPool.destroy();
  await database.close();
});

function startDispatcher(name: string, db: Knex, log: RunLog): Promise<Dispatcher> {
  // Runs of 1–4 ms: the instances' claims and finishes interleave differently each time.
  const processor = new RecordingProcessor(db, { name, log, runMs: () => 1 + Math.floor(Math.random() * 4), leaseMs: LEASE_MS });
  return Dispatcher.start({ db, processor, concurrency: 4, pollIntervalMs: 60_000, leaseMs: LEASE_MS, logger: pino({ level: 'silent' }) });
}

/** Message `message` of conversation `conversation`, committed by one instance's intake (with its NOTIFY). */
async function commit(db: Knex, conversation: number, message: number): Promise<void> {
  const eventId = `c${conversation}-m${message}`;
  const event = { kind: 'message' as const, channelName: 'sample', rawEvent: {}, channelAttributes: {}, occurredAt: new Date().toISOString(), eventId, senderForeignId: `c${conversation}` };
  assert.deepEqual(await insertInboxRows(db, [{ sourceId, workflowId: undefined, events: [event], receivedAt: new Date() }], true), [1]);
}

const messageOf = (run: Run) => Number(run.event.event.eventId.split('-m')[1]);

// Catches two instances running one event (a claim without row locks, or one that does not check
// a locked row again), two events of one conversation at once or out of order (a claim or
// hand-off that does not see the other instance's running event), and an event left for the poll
// because the instance told of it found its conversation busy on the other one.
test('two dispatchers run 20 conversations × 10 interleaved messages: each once, each conversation one at a time in order, both doing work, none waiting for a timer', async (t) => {
  const log = new RunLog();
  const dispatchers = [await startDispatcher('first', database.db, log), await startDispatcher('second', otherPool, log)];
  t.after(() => Promise.all(dispatchers.map((dispatcher) => dispatcher.stop())));

  for (let message = 0; message < MESSAGES; message += 1) {
    for (let conversation = 0; conversation < CONVERSATIONS; conversation += 1) {
      await commit(conversation % 2 === 0 ? database.db : otherPool, conversation, message);
    }
  }
  const total = CONVERSATIONS * MESSAGES;
  await log.waitFor(() => log.finished.length >= total, `${total} events`);

  const ran = log.runs.map((run) => run.event.event.eventId);
  assert.equal(new Set(ran).size, total, 'every event ran');
  assert.equal(ran.length, total, 'no event ran twice');
  const rows = await database.db('inbound_events').select('status', 'attempts');
  assert.deepEqual(rows.filter((row) => row.status !== 'done' || row.attempts !== 1), []);

  for (let conversation = 0; conversation < CONVERSATIONS; conversation += 1) {
    const runs = log.runs.filter((run) => run.event.sender_foreign_id === `c${conversation}`).sort((a, b) => a.startedAt - b.startedAt);
    assert.deepEqual(runs.map(messageOf), Array.from({ length: MESSAGES }, (_, i) => i), `c${conversation} in arrival order`);
    for (let i = 1; i < runs.length; i += 1) {
      assert.ok(runs[i]!.startedAt > runs[i - 1]!.endedAt!, `c${conversation}: message ${i} started before message ${i - 1} ended (${runs[i - 1]!.by}, then ${runs[i]!.by})`);
    }
  }
  const byInstance = Object.groupBy(log.runs, (run) => run.by);
  assert.ok((byInstance.first?.length ?? 0) > 0 && (byInstance.second?.length ?? 0) > 0, `both instances ran events: first ${byInstance.first?.length ?? 0}, second ${byInstance.second?.length ?? 0}`);
  const crossed = [...Array(CONVERSATIONS).keys()].filter((c) => new Set(log.runs.filter((run) => run.event.sender_foreign_id === `c${c}`).map((run) => run.by)).size === 2);
  assert.ok(crossed.length > 0, 'some conversation ran on both instances, so its order held across them');
  for (const dispatcher of dispatchers) assert.deepEqual([dispatcher.claimed.poll, dispatcher.claimed.retry], [0, 0], JSON.stringify(dispatcher.claimed));
});

// Catches a stopping instance that hands its conversations to no one: the other instance would
// find the next event only at its poll, a minute here.
test('an instance that stops tells the others at once: the conversation it was running goes on there, not at the next poll', async (t) => {
  const log = new RunLog();
  // The first message runs long enough for the other instance to start listening meanwhile.
  const slow = new RecordingProcessor(database.db, { name: 'stopping', log, runMs: () => 5_000, leaseMs: LEASE_MS });
  const stopping = await Dispatcher.start({ db: database.db, processor: slow, concurrency: 1, pollIntervalMs: 60_000, leaseMs: LEASE_MS, logger: pino({ level: 'silent' }) });
  await commit(database.db, 100, 0);
  await commit(database.db, 100, 1);
  await log.waitFor(() => log.runs.length >= 1, 'the first message to start', 10_000);
  const stopped = stopping.stop();
  const other = await startDispatcher('other', otherPool, log);
  t.after(() => other.stop());
  assert.equal(log.finished.length, 0, 'the first message ended before the other instance listened: the test proves nothing');

  await stopped;
  await log.waitFor(() => log.finished.length >= 2, 'the second message, on the other instance', 15_000);
  assert.deepEqual(log.runs.map((run) => [messageOf(run), run.by]), [[0, 'stopping'], [1, 'other']]);
  assert.equal(other.claimed.poll, 0, 'the other instance waited for its poll');
  assert.ok(other.claimed.notify >= 1);
});
