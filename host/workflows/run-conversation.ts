import type { Knex } from 'knex';
import { z } from 'zod';
import { isUuid } from '../db/fetch-sorted-page.ts';

/** How many of a thread's last messages a run's detail shows. */
export const CONVERSATION_LIMIT = 50;

export const conversationMessageSchema = z.object({
  direction: z.enum(['in', 'out']).describe('`in`: from the subscriber; `out`: a reply'),
  text: z.string(),
  createdAt: z.string(),
});

/**
 * The names of the subscribers who own these runs, by owner id: live runs are owned by a
 * subscriber's id, test runs by `test:<name>` (never a subscriber). An erased subscriber, or one
 * with no name, has no entry.
 * @example const names = await subscriberNames(db, runs.map((run) => run.owner_id));
 */
export async function subscriberNames(db: Knex, ownerIds: readonly string[]): Promise<Map<string, string>> {
  const ids = [...new Set(ownerIds.filter(isUuid))];
  if (ids.length === 0) return new Map();
  const rows: { id: string; first_name: string; last_name: string }[] = await db('subscribers').whereIn('id', ids).select('id', 'first_name', 'last_name');
  return new Map(rows.flatMap((row) => {
    const name = `${row.first_name} ${row.last_name}`.trim();
    return name ? [[row.id, name]] : [];
  }));
}

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
