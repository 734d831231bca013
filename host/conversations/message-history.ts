import type { StdIncomingMessage, StdOutgoingMessageEnvelope } from '@bot-ai/api';
import type { Knex } from 'knex';
import { storableJson, storableText } from '../json/storable.ts';

export interface HistoryMessage {
  role: 'user' | 'assistant';
  text: string;
}

/** Inbound and outbound messages per thread: what `input_mode: history` reads. */
export class MessageHistory {
  constructor(
    private readonly db: Knex,
    private readonly now: () => Date,
  ) {}

  /** Records an inbound message once per event, however often the event's run is retried. */
  async recordInbound(threadId: string, inboundEventId: string, message: StdIncomingMessage): Promise<void> {
    await this.db.raw(
      `INSERT INTO conversation_messages (thread_id, direction, text, message, inbound_event_id, created_at)
       VALUES (?, 'in', ?, ?, ?, ?) ON CONFLICT (inbound_event_id) WHERE direction = 'in' DO NOTHING`,
      [threadId, storableText(textOf(message)), storableJson(message), inboundEventId, this.now()],
    );
  }

  async recordOutbound(threadId: string, envelope: StdOutgoingMessageEnvelope): Promise<void> {
    await this.db('conversation_messages').insert({
      thread_id: threadId,
      direction: 'out',
      text: storableText(textOf(envelope)),
      message: storableJson(envelope),
      created_at: this.now(),
    });
  }

  /** The last `limit` messages of the thread, oldest first. */
  async recent(threadId: string, limit: number): Promise<HistoryMessage[]> {
    const rows: { direction: 'in' | 'out'; text: string }[] = await this.db('conversation_messages')
      .where({ thread_id: threadId })
      .orderBy('id', 'desc')
      .limit(limit)
      .select('direction', 'text');
    return rows.reverse().map((row) => ({ role: row.direction === 'in' ? 'user' : 'assistant', text: row.text }));
  }
}

function textOf(message: { data?: unknown }): string {
  const data = message.data as { text?: unknown } | undefined;
  return typeof data?.text === 'string' ? data.text : '';
}
