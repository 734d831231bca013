import type { Knex } from 'knex';

/** The graphile-worker task that takes one inbound event to its end. */
export const PROCESS_INBOUND_EVENT = 'process_inbound_event';

/** An inbox row just inserted, as the job for it needs it. */
export interface EnqueuedEvent {
  id: string;
  source_id: string;
  sender_foreign_id: string | null;
}

/** SQL text and its `?` bindings, in order, for knex's `raw`. */
export interface SqlFragment {
  sql: string;
  bindings: Knex.RawBinding[];
}

/** The named queue of an event's conversation (source + sender), as SQL over the row `alias`; NULL without a sender. */
function conversationQueue(alias: string): string {
  return `CASE WHEN ${alias}.sender_foreign_id IS NULL THEN NULL
               ELSE 'conversation:' || ${alias}.source_id || ':' || ${alias}.sender_foreign_id END`;
}

/**
 * A query that enqueues one dispatch job per row of `rows` (a relation with the columns `id`,
 * `source_id` and `sender_foreign_id`, such as a CTE's name) and yields exactly one row: `jobs`,
 * how many it enqueued. Run it in the statement or transaction that inserted the events: the 200
 * that follows the commit then means both the events and their jobs are stored, and a rolled
 * back insert leaves no job behind. Events of one conversation (source + sender) share a named
 * queue, so they run in order; an event without a sender needs no order (it will be skipped).
 * @example
 * const jobs = enqueueInboundEventsSql('inserted', 25);
 * await db.raw(`WITH inserted AS (INSERT … RETURNING id, source_id, sender_foreign_id), queued AS (${jobs.sql}) SELECT … FROM inserted CROSS JOIN queued`, [...insertBindings, ...jobs.bindings]);
 */
export function enqueueInboundEventsSql(rows: string, maxAttempts: number): SqlFragment {
  if (!Number.isInteger(maxAttempts) || maxAttempts < 1) throw new RangeError(`maxAttempts must be a positive integer, got ${maxAttempts}`);
  // An aggregate always yields one row, so a statement that joins this multiplies nothing, and
  // reading it makes add_jobs run to the end. Without rows, add_jobs is not called at all.
  return {
    sql: `SELECT count(*)::int AS jobs FROM graphile_worker.add_jobs(array(
        SELECT ROW(?, json_build_object('inboundEventId', event.id),
                   ${conversationQueue('event')}, NULL, ?, NULL, NULL, NULL)::graphile_worker.job_spec
        FROM ${rows} AS event
      ))
      WHERE EXISTS (SELECT 1 FROM ${rows})`,
    bindings: [PROCESS_INBOUND_EVENT, maxAttempts],
  };
}

/**
 * Enqueues one job per event given, as `enqueueInboundEventsSql` does for the rows of a statement;
 * call it inside the transaction that changed the events (an admin's retry).
 */
export async function enqueueInboundEvents(trx: Knex | Knex.Transaction, events: EnqueuedEvent[], maxAttempts: number): Promise<void> {
  if (events.length === 0) return;
  const given = events.map(({ id, source_id, sender_foreign_id }) => ({ id, source_id, sender_foreign_id }));
  const jobs = enqueueInboundEventsSql('given', maxAttempts);
  await trx.raw(
    `WITH given AS (SELECT * FROM jsonb_to_recordset(?::jsonb) AS given(id uuid, source_id uuid, sender_foreign_id text)) ${jobs.sql}`,
    [JSON.stringify(given), ...jobs.bindings],
  );
}

/**
 * Enqueues the event's job again, in its conversation's queue, to run `delayMs` from now: for an
 * event held back by an earlier message (`behindChecks`: how often it was so far), or one whose
 * platform asked to be tried again later.
 */
export async function enqueueInboundEventLater(db: Knex, inboundEventId: string, delayMs: number, maxAttempts: number, behindChecks = 0): Promise<void> {
  await db.raw(
    `SELECT graphile_worker.add_job(?, json_build_object('inboundEventId', event.id, 'behindChecks', ?::int), queue_name => ${conversationQueue('event')},
       run_at => now() + make_interval(secs => ?), max_attempts => ?)
     FROM inbound_events AS event WHERE event.id = ?`,
    [PROCESS_INBOUND_EVENT, behindChecks, delayMs / 1000, maxAttempts, inboundEventId],
  );
}
