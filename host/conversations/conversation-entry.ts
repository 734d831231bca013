import type { StdIncomingMessage } from '@bot-ai/api';
import type { Knex } from 'knex';
import { PreparedStatement } from '../db/prepared-statement.ts';
import { storableJson, storableText } from '../json/storable.ts';
import { textOf } from './message-history.ts';
import { toSubscriber, type Subscriber, type SubscriberRow } from './subscriber-store.ts';

/** An inbound event arriving in its conversation. */
export interface Arrival {
  sourceId: string;
  senderForeignId: string;
  inboundEventId: string;
  /** Recorded in the thread's history; an event without a message records nothing. */
  message: StdIncomingMessage | undefined;
}

/** Where an arrival landed: its subscriber and the thread it now belongs to. */
export interface Entered {
  subscriber: Subscriber;
  threadId: string;
}

// Data-modifying CTEs run once whatever the final SELECT reads; each sees the rows the ones before
// it returned, not their effect on the tables, hence `touched` then `created`.
const ENTER = new PreparedStatement<SubscriberRow & { thread_id: string }>(
  'conversation-enter',
  `WITH subscriber AS (
     SELECT * FROM subscribers WHERE source_id = ?::uuid AND foreign_id = ?::text
   ), touched AS (
     UPDATE threads SET last_activity_at = greatest(last_activity_at, ?::timestamptz)
     WHERE id = (SELECT t.id FROM threads t JOIN subscriber s ON t.subscriber_id = s.id AND t.source_id = s.source_id
                 WHERE t.last_activity_at >= ?::timestamptz ORDER BY t.last_activity_at DESC LIMIT 1)
     RETURNING id
   ), created AS (
     INSERT INTO threads (subscriber_id, source_id, created_at, last_activity_at)
     SELECT s.id, s.source_id, ?::timestamptz, ?::timestamptz FROM subscriber s WHERE NOT EXISTS (SELECT 1 FROM touched)
     RETURNING id
   ), thread AS (
     SELECT id FROM touched UNION ALL SELECT id FROM created
   ), recorded AS (
     INSERT INTO conversation_messages (thread_id, direction, text, message, inbound_event_id, created_at)
     SELECT thread.id, 'in', ?::text, ?::jsonb, ?::uuid, ?::timestamptz FROM thread WHERE ?::boolean
     ON CONFLICT (inbound_event_id) WHERE direction = 'in' DO NOTHING
   )
   SELECT subscriber.*, (SELECT id FROM thread) AS thread_id FROM subscriber`,
);

/**
 * Takes an inbound event into its conversation in one statement: finds the sender's
 * subscriber, touches the current thread (or starts a new one after `inactivityMs` of silence,
 * so thread-scoped memory and the history an AI reply reads belong to one conversation), and
 * records the message in the thread's history once per event, however often its run is retried.
 * One round trip instead of three: each counts at a thousand messages a second
 * (`npm run bench -- e2e`).
 */
export class ConversationEntry {
  constructor(
    private readonly db: Knex,
    private readonly options: { now: () => Date; inactivityMs: number },
  ) {}

  /** Undefined when the sender has no subscriber yet: create it (SubscriberStore), then enter again. */
  async enter({ sourceId, senderForeignId, inboundEventId, message }: Arrival): Promise<Entered | undefined> {
    const now = this.options.now();
    const since = new Date(now.getTime() - this.options.inactivityMs);
    const { rows } = await ENTER.run(this.db, [
      sourceId,
      senderForeignId,
      now,
      since,
      now,
      now,
      storableText(message ? textOf(message) : ''),
      storableJson(message ?? null),
      inboundEventId,
      now,
      message !== undefined,
    ]);
    const row = rows[0];
    return row ? { subscriber: toSubscriber(row, false), threadId: row.thread_id } : undefined;
  }
}
