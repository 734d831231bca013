import type { PlainInboundEvent } from '@bot-ai/api';
import type { Knex } from 'knex';

export interface InboxCommit {
  sourceId: string;
  workflowId: string | undefined;
  events: PlainInboundEvent[];
}

/**
 * The durable inbox: decoded events are committed here before the platform gets its 200, so
 * nothing acknowledged is lost. A retried delivery of an event already stored (same source and
 * event id) is acknowledged without a second row.
 */
export class InboxStore {
  constructor(
    private readonly db: Knex,
    private readonly now: () => Date,
  ) {}

  /** Stores the events in one statement; returns how many were new. */
  async commit({ sourceId, workflowId, events }: InboxCommit): Promise<number> {
    if (events.length === 0) return 0;
    const receivedAt = this.now();
    // One row per event id even within a batch: ON CONFLICT cannot touch a row twice.
    const unique = [...new Map(events.map((event) => [event.eventId, event])).values()];
    const inserted = await this.db('inbound_events')
      .insert(
        unique.map((event) => ({
          source_id: sourceId,
          event_id: event.eventId,
          workflow_id: workflowId ?? null,
          sender_foreign_id: event.senderForeignId ?? null,
          event: JSON.stringify(event),
          received_at: receivedAt,
        })),
      )
      .onConflict(['source_id', 'event_id'])
      .ignore()
      .returning('id');
    return inserted.length;
  }
}
