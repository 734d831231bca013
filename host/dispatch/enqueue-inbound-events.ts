import type { Knex } from 'knex';

/** The graphile-worker task that takes one inbound event to its end. */
export const PROCESS_INBOUND_EVENT = 'process_inbound_event';

/** An inbox row just inserted, as the job for it needs it. */
export interface EnqueuedEvent {
  id: string;
  source_id: string;
  sender_foreign_id: string | null;
}

/**
 * Enqueues one job per new inbound event, inside the transaction that inserted the events: the
 * 200 that follows the commit means both the events and their jobs are stored, and a rolled
 * back insert leaves no job behind. Events of one conversation (source + sender) share a named
 * queue, so they run in order; an event without a sender needs no order (it will be skipped).
 */
export async function enqueueInboundEvents(trx: Knex | Knex.Transaction, events: EnqueuedEvent[], maxAttempts: number): Promise<void> {
  if (events.length === 0) return;
  const specs = events.map((event) => ({
    id: event.id,
    queue: event.sender_foreign_id === null ? null : `conversation:${event.source_id}:${event.sender_foreign_id}`,
  }));
  await trx.raw(
    `SELECT graphile_worker.add_jobs(array(
       SELECT ROW(?, json_build_object('inboundEventId', spec.id), spec.queue, NULL, ?, NULL, NULL, NULL)::graphile_worker.job_spec
       FROM jsonb_to_recordset(?::jsonb) AS spec(id uuid, queue text)
     ))`,
    [PROCESS_INBOUND_EVENT, maxAttempts, JSON.stringify(specs)],
  );
}
