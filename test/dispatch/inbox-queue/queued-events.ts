import type { Knex } from 'knex';

/** An inbound_events row written straight into the inbox, as intake or a dispatcher would leave it. */
export interface QueuedEvent {
  /** The conversation: null for an event without a sender. */
  sender: string | null;
  status?: 'queued' | 'running' | 'done';
  /** Seconds from now (negative: in the past). */
  retryInSecs?: number;
  /** Seconds ago the claim was taken (status `running`). */
  claimedSecsAgo?: number;
  attempts?: number;
}

let eventNumber = 0;

/** A source row of the sample channel; `id` fixes where it sorts among sources (the claim walks them by id). */
export async function insertSource(db: Knex, id?: string): Promise<string> {
  const ref = `ref-${(eventNumber += 1)}`;
  const [row] = await db('sources').insert({ ...(id ? { id } : {}), ref, name: ref, channel: 'sample', settings: '{}' }).returning('id');
  return row.id;
}

/** Inserts the events in one statement, so in this order of arrival (seq); returns their ids in the same order. */
export async function queueEvents(db: Knex, sourceId: string, events: QueuedEvent[]): Promise<string[]> {
  const rows = events.map((event) => {
    eventNumber += 1;
    const running = event.status === 'running';
    return {
      source_id: sourceId,
      event_id: `event-${eventNumber}`,
      sender_foreign_id: event.sender,
      event: JSON.stringify({ eventId: `event-${eventNumber}` }),
      status: event.status ?? 'queued',
      attempts: event.attempts ?? (running ? 1 : 0),
      retry_at: event.retryInSecs === undefined ? null : db.raw(`now() + make_interval(secs => ?)`, [event.retryInSecs]),
      claimed_at: running ? db.raw(`now() - make_interval(secs => ?)`, [event.claimedSecsAgo ?? 0]) : null,
      claim_token: running ? db.raw('gen_random_uuid()') : null,
    };
  });
  const inserted: { id: string }[] = await db('inbound_events').insert(rows).returning('id');
  return inserted.map((row) => row.id);
}

/**
 * `count` queued events of one source in one statement, spread round-robin over `conversations`
 * senders named `<prefix>-00000`, `<prefix>-00001`… (or all running under live claims with
 * `running`, one per conversation).
 */
export async function queueFlood(db: Knex, sourceId: string, options: { count: number; conversations: number; prefix: string; running?: boolean }): Promise<void> {
  const { count, conversations, prefix, running = false } = options;
  await db.raw(
    `INSERT INTO inbound_events (source_id, event_id, sender_foreign_id, event, status, attempts, claimed_at, claim_token)
     SELECT CAST(:sourceId AS uuid), :prefix || '-event-' || i, :prefix || '-' || lpad(CAST(i % CAST(:conversations AS int) AS text), 5, '0'),
       '{}'::jsonb, CASE WHEN :running THEN 'running' ELSE 'queued' END, CASE WHEN :running THEN 1 ELSE 0 END,
       CASE WHEN :running THEN now() END, CASE WHEN :running THEN gen_random_uuid() END
     FROM generate_series(0, CAST(:count AS int) - 1) AS i ORDER BY i`,
    { sourceId, prefix, conversations, count, running },
  );
}
