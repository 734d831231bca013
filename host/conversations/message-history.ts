import type { Knex } from 'knex';

export interface HistoryMessage {
  role: 'user' | 'assistant';
  text: string;
}

/**
 * Inbound and outbound messages per thread: what `input_mode: history` reads. ConversationEntry
 * records inbound messages, and a step's record outbound ones (SENT_REPLIES_CTES), each in the
 * statement that does the rest.
 */
export class MessageHistory {
  constructor(private readonly db: Knex) {}

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

/** The text of an inbound message or outgoing envelope, as history keeps it ('' when it has none). */
export function textOf(message: { data?: unknown }): string {
  const data = message.data as { text?: unknown } | undefined;
  return typeof data?.text === 'string' ? data.text : '';
}
