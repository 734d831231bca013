import type { Knex } from 'knex';
import { PROCESS_INBOUND_EVENT } from './enqueue-inbound-events.ts';

/**
 * Events whose job has no try left but which never reached an end: the host died during the last
 * attempt (graphile-worker does not run a job again once its attempts are used), or recording
 * the outcome failed. They become dead letters (`failed`, retryable from the admin API) and
 * their spent jobs are removed. Reads graphile-worker's private tables: it has no public API
 * for permanently failed jobs, and this is the query its own cleanup uses.
 * Also removes holds of events that have ended (see conversation_holds). Returns how many
 * events were marked.
 */
export async function failAbandonedEvents(db: Knex): Promise<number> {
  const result = await db.raw<{ rowCount: number }>(
    `WITH spent AS (
       DELETE FROM graphile_worker._private_jobs jobs
       USING graphile_worker._private_tasks tasks
       WHERE jobs.task_id = tasks.id AND tasks.identifier = ?
         AND jobs.locked_at IS NULL AND jobs.attempts >= jobs.max_attempts
       RETURNING (jobs.payload->>'inboundEventId')::uuid AS event_id
     )
     UPDATE inbound_events SET status = 'failed', claim_token = NULL,
       reason = coalesce(reason || '; ', '') || 'the host stopped during the last attempt'
     WHERE id IN (SELECT event_id FROM spent) AND status IN ('queued', 'running')`,
    [PROCESS_INBOUND_EVENT],
  );
  // Holds left by events that ended without releasing them (those just marked, or a hold written
  // as the event finished elsewhere) count for nothing; they go here. The table stays tiny.
  await db.raw(
    `DELETE FROM conversation_holds AS hold USING inbound_events AS event
     WHERE event.id = hold.inbound_event_id AND event.status NOT IN ('queued', 'running')`,
  );
  return result.rowCount;
}
