import assert from 'node:assert/strict';
import type { Knex } from 'knex';

/** Where the pipeline stood, read from the database (the host being dead or stopped). */
export interface CrashSnapshot {
  /** Status of each inbound event, by the platform's event id. */
  statuses: Map<string, string>;
  /** Attempts each inbound event was claimed for, by the platform's event id. */
  attempts: Map<string, number>;
  /** Events not yet `done` or `skipped`. */
  unfinished: number;
  /** Sends recorded `pending`: attempted, outcome not recorded. */
  pendingSendKeys: string[];
  /** How long before this reading each pending send was recorded, in ms. */
  pendingAgesMs: number[];
  /** Workflow runs still marked `running`. */
  runningRuns: number;
  /** Workflow runs a dead host left running, ended by the claim that took their event over. */
  abandonedRuns: number;
  repliesReceived: number;
}

/** One reply the outbox recorded, with the platform event id it answers. */
export interface ReplyRecord {
  sendKey: string;
  eventId: string;
  status: 'pending' | 'sent' | 'failed' | 'uncertain';
  attempts: number;
}

export async function readCrashSnapshot(db: Knex, eventIds: string[], repliesReceived: number): Promise<CrashSnapshot> {
  await untilDeadSessionsSettle(db);
  const events: { event_id: string; status: string; attempts: number }[] = await db('inbound_events').whereIn('event_id', eventIds).select('event_id', 'status', 'attempts');
  const pending: { send_key: string; age_ms: string }[] = await db('outbound_messages')
    .where({ status: 'pending' })
    .select('send_key', db.raw('round(extract(epoch from clock_timestamp() - created_at) * 1000) AS age_ms'));
  const [running] = await db('workflow_runs').where({ status: 'running' }).count({ count: '*' });
  const [abandoned] = await db('workflow_runs').where({ status: 'failed' }).whereRaw(`error->>'code' = 'BOT_ERR_WORKFLOW_RUN_ABANDONED'`).count({ count: '*' });
  return {
    statuses: new Map(events.map((row) => [row.event_id, row.status])),
    attempts: new Map(events.map((row) => [row.event_id, row.attempts])),
    unfinished: events.filter((row) => row.status !== 'done' && row.status !== 'skipped').length,
    pendingSendKeys: pending.map((row) => row.send_key),
    pendingAgesMs: pending.map((row) => Number(row.age_ms)),
    runningRuns: Number(running!.count),
    abandonedRuns: Number(abandoned!.count),
    repliesReceived,
  };
}

export async function readReplyRecords(db: Knex): Promise<ReplyRecord[]> {
  const rows: { send_key: string; event_id: string; status: ReplyRecord['status']; attempts: number }[] = await db('outbound_messages as o')
    .join('inbound_events as e', 'e.id', 'o.inbound_event_id')
    .select('o.send_key', 'e.event_id', 'o.status', 'o.attempts');
  return rows.map((row) => ({ sendKey: row.send_key, eventId: row.event_id, status: row.status, attempts: row.attempts }));
}

/** Polls until every listed event is `done`, `skipped` or `failed`. */
export async function waitUntilFinished(db: Knex, eventIds: string[], timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const rows: { status: string }[] = await db('inbound_events').whereIn('event_id', eventIds).select('status');
    const open = rows.filter((row) => row.status === 'queued' || row.status === 'running').length;
    if (rows.length === eventIds.length && open === 0) return;
    if (Date.now() > deadline) assert.fail(`${open} of ${eventIds.length} events still open after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Waits until no other session of the database is running a statement or holding a transaction.
 * A killed host's PostgreSQL sessions outlive it for a moment: one in the middle of a statement
 * (a run's outcome being committed) finishes it before it notices its client is gone, so a
 * reading taken at once could see an event `running` that is `done` an instant later.
 */
async function untilDeadSessionsSettle(db: Knex, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { rows } = await db.raw<{ rows: { busy: string }[] }>(
      `SELECT count(*) AS busy FROM pg_stat_activity
        WHERE datname = current_database() AND pid <> pg_backend_pid() AND state IN ('active', 'idle in transaction', 'idle in transaction (aborted)')`,
    );
    if (Number(rows[0]!.busy) === 0) return;
    assert.ok(Date.now() < deadline, `sessions of the killed host still busy after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
