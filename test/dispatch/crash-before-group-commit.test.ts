import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startHostProcess } from '../support/host-process.ts';
import { sampleEvent } from './conversation-harness.ts';
import { crashHostSetup } from './crash-host-setup.ts';
import { readCrashSnapshot, readReplyRecords, waitUntilFinished } from './crash-snapshot.ts';
import { postSignedWebhook, setUpGreetingOverHttp } from './greeting-over-http.ts';

// Fault injection at the worst moment for group commit: the platform has accepted every reply of
// a group of runs, and the one statement that would record them all (marks sent, runs ended,
// events done) never commits, because the host dies while it waits. A lock held by this test on
// `workflow_runs` makes the statement wait; the host is then SIGKILLed and its sessions ended, so
// the statement is gone, as it is when a host dies before its commit reaches the database.
const SUBSCRIBERS = ['ada', 'bob', 'cyd', 'dee', 'eve', 'fay'];
// Long enough to take the lock between the sends' arrival and their answers.
const { database, platform, hostEnv, authSecret: AUTH_SECRET } = await crashHostSetup({ platformDelayMs: 1_000 });
const EVENT_IDS = SUBSCRIBERS.map((subscriber) => `${subscriber}-1`);
const replyOf = (subscriber: string) => `Hello ${subscriber[0]!.toUpperCase()}${subscriber.slice(1)}!`;

test('a host that dies after the platform answered a group of runs, before the group commit, loses no reply and duplicates none', async (t) => {
  const crashed = await startHostProcess(hostEnv);
  t.after(() => crashed.kill());
  const { sourceRef } = await setUpGreetingOverHttp({ url: crashed.url, authSecret: AUTH_SECRET }, platform.url);
  const events = SUBSCRIBERS.map((subscriber) => sampleEvent(`${subscriber}-1`, subscriber, `my name is ${subscriber[0]!.toUpperCase()}${subscriber.slice(1)}`));
  assert.equal(await postSignedWebhook(crashed.url, sourceRef, events), 200);
  // Every reply is at the platform, held unanswered: the runs wait for the platform's answers.
  await platform.waitFor(SUBSCRIBERS.length, 20_000);

  const blocker = await database.db.transaction();
  try {
    await blocker.raw('LOCK TABLE workflow_runs IN EXCLUSIVE MODE');
    // The platform answers; the statement recording the group waits for the lock.
    await waitForBlockedStatement(database.db);
    await crashed.kill();
    await database.db.raw(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
        WHERE datname = current_database() AND pid <> pg_backend_pid() AND pid <> ?`,
      [await backendPid(blocker)],
    );
  } finally {
    await blocker.rollback();
  }

  const atKill = await readCrashSnapshot(database.db, EVENT_IDS, platform.received.length);
  assert.deepEqual([...atKill.statuses.values()], EVENT_IDS.map(() => 'running'), 'no event of the group was recorded done');
  assert.equal(atKill.pendingSendKeys.length, SUBSCRIBERS.length, 'every reply the platform accepted is still pending: its mark was in the lost commit');

  const restarted = await startHostProcess(hostEnv);
  try {
    await waitUntilFinished(database.db, EVENT_IDS, 40_000);
  } finally {
    await restarted.stop('SIGTERM');
  }

  const records = await readReplyRecords(database.db);
  assert.deepEqual(records.map((record) => record.eventId).sort(), [...EVENT_IDS].sort(), 'one reply record per event, no more');
  assert.deepEqual(records.filter((record) => record.status !== 'sent').map((record) => record.eventId), [], 'every reply ends sent');
  // The unknown outcomes were sent again under their keys (the sample channel's sends are
  // idempotent) and the platform dropped the repeats: each key twice on the wire at most.
  const arrivals = new Map<string, number>();
  for (const message of platform.received) arrivals.set(message.idempotencyKey!, (arrivals.get(message.idempotencyKey!) ?? 0) + 1);
  for (const [key, count] of arrivals) {
    assert.ok(atKill.pendingSendKeys.includes(key), `${key}: a key the outbox had not recorded before the crash`);
    assert.ok(count <= 2, `${key}: sent ${count} times`);
  }
  const delivered = platform.delivered();
  assert.equal(delivered.length, SUBSCRIBERS.length, 'each message answered exactly once');
  for (const subscriber of SUBSCRIBERS) {
    const got = delivered.filter((message) => message.body.recipient.id === subscriber).map((message) => message.body.message.text);
    assert.deepEqual(got, [replyOf(subscriber)], `${subscriber}: its own reply, once`);
  }
  // The memory write of the lost attempt was committed with its step's record before the send:
  // the retry reused that step instead of writing again.
  const reused: { n: string }[] = await database.db('workflow_run_steps').where({ position: 0, reused: true }).count({ n: '*' });
  assert.equal(Number(reused[0]!.n), SUBSCRIBERS.length, 'each retried run reused its committed first step');
});

/** Waits until a session of the host waits for a lock on `workflow_runs`. */
async function waitForBlockedStatement(db: typeof database.db, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { rows } = await db.raw<{ rows: { waiting: string }[] }>(
      `SELECT count(*) AS waiting FROM pg_locks AS l JOIN pg_class AS c ON c.oid = l.relation
        WHERE c.relname = 'workflow_runs' AND NOT l.granted`,
    );
    if (Number(rows[0]!.waiting) > 0) return;
    if (Date.now() > deadline) assert.fail('no statement waited for the lock: the group was not recorded as the test expects');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function backendPid(trx: { raw: typeof database.db.raw }): Promise<number> {
  const { rows } = await trx.raw<{ rows: { pid: number }[] }>('SELECT pg_backend_pid() AS pid');
  return rows[0]!.pid;
}
