import type { Knex } from 'knex';

/**
 * Conversation threads: a subscriber's conversation on one source. A message after
 * `inactivityMs` of silence starts a new thread, so thread-scoped memory and the history an AI
 * reply reads belong to one conversation.
 */
export class ThreadStore {
  constructor(
    private readonly db: Knex,
    private readonly options: { now: () => Date; inactivityMs: number },
  ) {}

  /** The subscriber's current thread on the source, touched; a new one after inactivity. */
  async current(subscriberId: string, sourceId: string): Promise<string> {
    const now = this.options.now();
    const since = new Date(now.getTime() - this.options.inactivityMs);
    const touched = await this.db.raw<{ rows: { id: string }[] }>(
      `UPDATE threads SET last_activity_at = greatest(last_activity_at, ?)
       WHERE id = (SELECT id FROM threads WHERE subscriber_id = ? AND source_id = ? AND last_activity_at >= ?
                   ORDER BY last_activity_at DESC LIMIT 1)
       RETURNING id`,
      [now, subscriberId, sourceId, since],
    );
    if (touched.rows[0]) return touched.rows[0].id;
    const [created] = await this.db('threads')
      .insert({ subscriber_id: subscriberId, source_id: sourceId, created_at: now, last_activity_at: now })
      .returning('id');
    return (created as { id: string }).id;
  }
}
