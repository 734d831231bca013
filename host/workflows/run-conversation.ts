import type { Knex } from 'knex';
import { z } from 'zod';

/** How many of a thread's last messages a run's detail shows. */
export const CONVERSATION_LIMIT = 50;

export const conversationMessageSchema = z.object({
  direction: z.enum(['in', 'out']).describe('`in`: from the subscriber; `out`: a reply'),
  text: z.string(),
  createdAt: z.string(),
});

/**
 * The last messages of a run's thread, oldest first: the conversation the run took part in
 * (empty for a test run, which has no thread).
 * @example const conversation = await threadConversation(db, run.thread_id);
 */
export async function threadConversation(db: Knex, threadId: string | null): Promise<z.input<typeof conversationMessageSchema>[]> {
  if (!threadId) return [];
  const rows: { direction: 'in' | 'out'; text: string; created_at: Date }[] = await db('conversation_messages')
    .where({ thread_id: threadId })
    .orderBy('id', 'desc')
    .limit(CONVERSATION_LIMIT)
    .select('direction', 'text', 'created_at');
  return rows.reverse().map((row) => ({ direction: row.direction, text: row.text, createdAt: row.created_at.toISOString() }));
}
