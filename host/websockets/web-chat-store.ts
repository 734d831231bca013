import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';

/** The notification channel of new replies: the payload is `<instance id>:<session id>:<seq>`. */
export const REPLY_NOTICE_CHANNEL = 'bot_web_chat_replies';

export interface StoredReply {
  seq: number;
  message: unknown;
}

export interface NewReply {
  sessionId: string;
  sendKey: string;
  message: unknown;
  /** Named in the notice, so the instance that stored the reply does not fetch it back. */
  instanceId: string;
}

/** Most replies fetched at once when a socket catches up; more are fetched in further rounds. */
export const REPLAY_BATCH = 200;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Chat sessions and the replies to them, in PostgreSQL. A reply is committed (and announced with
 * `pg_notify`, sent at commit) in one statement, so it survives a closed socket, a host restart,
 * or a socket open on another instance.
 * @example
 * const sessionId = await store.createSession(sourceId);
 * const { seq } = await store.storeReply({ sessionId, sendKey, message: { type: 'text', text: 'Hi' }, instanceId });
 * const missed = await store.repliesAfter(sessionId, 0);
 */
export class WebChatStore {
  constructor(private readonly db: Knex) {}

  /** A new session of the source; its id becomes the subscriber's foreign id. */
  async createSession(sourceId: string): Promise<string> {
    const id = randomUUID();
    await this.db('web_chat_sessions').insert({ id, source_id: sourceId });
    return id;
  }

  /**
   * Marks a session seen again and answers the seq of its latest reply; undefined when it belongs
   * to another source. A session whose row is gone (its token is still validly signed) is
   * recreated, so the subscriber keeps its id.
   */
  async resumeSession(sessionId: string, sourceId: string): Promise<{ lastSeq: number } | undefined> {
    if (!UUID.test(sessionId)) return undefined;
    const { rows } = await this.db.raw<{ rows: { source_id: string; last_seq: string }[] }>(
      `INSERT INTO web_chat_sessions (id, source_id) VALUES (?, ?)
       ON CONFLICT (id) DO UPDATE SET last_seen_at = now() RETURNING source_id, last_seq`,
      [sessionId, sourceId],
    );
    return rows[0]?.source_id === sourceId ? { lastSeq: Number(rows[0].last_seq) } : undefined;
  }

  /**
   * Stores one reply under the session's next seq, once per send key: a key stored before
   * answers with its first seq and `inserted: false` (nothing is announced again).
   */
  async storeReply({ sessionId, sendKey, message, instanceId }: NewReply): Promise<{ seq: number; inserted: boolean }> {
    if (!UUID.test(sessionId)) throw new Error(`Not a chat session id: ${sessionId}`);
    const { rows } = await this.db.raw<{ rows: { seq: string }[] }>(
      `WITH bumped AS (
         UPDATE web_chat_sessions SET last_seq = last_seq + 1
         WHERE id = ? AND NOT EXISTS (SELECT 1 FROM web_chat_replies WHERE send_key = ?)
         RETURNING id, last_seq
       ), inserted AS (
         INSERT INTO web_chat_replies (session_id, seq, send_key, message)
         SELECT id, last_seq, ?, ?::jsonb FROM bumped
         ON CONFLICT (send_key) DO NOTHING
         RETURNING session_id, seq
       )
       SELECT seq, pg_notify(?, ? || ':' || session_id || ':' || seq)::text AS notified FROM inserted`,
      [sessionId, sendKey, sendKey, JSON.stringify(message), REPLY_NOTICE_CHANNEL, instanceId],
    );
    if (rows[0]) return { seq: Number(rows[0].seq), inserted: true };
    const existing = await this.db('web_chat_replies').where({ send_key: sendKey }).first('seq');
    if (!existing) throw new Error(`No chat session ${sessionId} to store a reply in`);
    return { seq: Number(existing.seq), inserted: false };
  }

  /** The session's replies after `afterSeq`, oldest first, at most `limit`. */
  async repliesAfter(sessionId: string, afterSeq: number, limit = REPLAY_BATCH): Promise<StoredReply[]> {
    const rows: { seq: string; message: unknown }[] = await this.db('web_chat_replies')
      .where('session_id', sessionId)
      .andWhere('seq', '>', afterSeq)
      .orderBy('seq')
      .limit(limit)
      .select('seq', 'message');
    return rows.map((row) => ({ seq: Number(row.seq), message: row.message }));
  }
}
