import type { StdOutgoingMessageEnvelope } from '@bot-ai/api';
import type { Knex } from 'knex';
import { BatchedStatement } from '../db/batched-statement.ts';
import { textOf } from '../conversations/message-history.ts';
import { storableJson } from '../json/storable.ts';

/** A reply's record as the outbox reads it back. */
export interface SendRecord {
  id: string;
  status: 'pending' | 'sent' | 'failed' | 'uncertain';
  mid: string | null;
}

/** A reply about to be attempted. */
export interface SendClaim {
  sendKey: string;
  inboundEventId: string;
  runId: string;
  sourceId: string;
  threadId: string;
  envelope: StdOutgoingMessageEnvelope;
}

/** A reply the platform accepted. */
export interface SentReply {
  id: string;
  mid: string | undefined;
  sentAt: Date;
  runId: string;
  threadId: string;
  envelope: StdOutgoingMessageEnvelope;
}

/**
 * Records a reply before it is attempted, or finds the record a retried run left: a refused send
 * (`failed`) is attempted again; one of unknown outcome (`pending`, `uncertain`) again only when
 * the platform drops repeated keys (`resendUnknown`), else it becomes `uncertain`.
 */
function claimSql(resendUnknown: boolean): string {
  return `INSERT INTO outbound_messages AS o (send_key, inbound_event_id, run_id, source_id, thread_id, envelope, status, attempts)
          SELECT send_key, inbound_event_id, run_id, source_id, thread_id, envelope, 'pending', 1
            FROM jsonb_to_recordset(?::jsonb) AS x(send_key text, inbound_event_id uuid, run_id uuid, source_id uuid, thread_id uuid, envelope jsonb)
          ON CONFLICT (send_key) DO UPDATE SET attempts = o.attempts + 1,
            status = CASE WHEN o.status = 'failed' THEN 'pending'
                          WHEN o.status IN ('pending', 'uncertain') AND ${resendUnknown} THEN 'pending'
                          WHEN o.status = 'pending' THEN 'uncertain'
                          ELSE o.status END
          RETURNING o.send_key, o.id, o.status, o.mid`;
}

/**
 * The outbox's writes: claiming replies before they are attempted, and marking them sent
 * together with their history entry (what `input_mode: history` reads), both batched across the
 * runs in flight (BatchedStatement); marking a failed one. One instance serves every LiveOutbox
 * of a process.
 */
export class OutboxRecords {
  readonly #claims: Record<'resend' | 'once', BatchedStatement<SendClaim, SendRecord & { send_key: string }, SendRecord>>;
  readonly #sent: BatchedStatement<SentReply>;
  readonly #db: Knex;

  constructor(db: Knex) {
    this.#db = db;
    const claims = (resendUnknown: boolean) =>
      new BatchedStatement<SendClaim, SendRecord & { send_key: string }, SendRecord>(db, {
        name: resendUnknown ? 'outbox-claim-sends-resend-unknown' : 'outbox-claim-sends-once',
        sql: claimSql(resendUnknown),
        toRow: (claim) => ({
          send_key: claim.sendKey,
          inbound_event_id: claim.inboundEventId,
          run_id: claim.runId,
          source_id: claim.sourceId,
          thread_id: claim.threadId,
          envelope: claim.envelope,
        }),
        results: (rows, items) => {
          const byKey = new Map(rows.map(({ send_key, ...record }) => [send_key, record]));
          return items.map((item) => byKey.get(item.sendKey)!);
        },
      });
    this.#claims = { resend: claims(true), once: claims(false) };
    // `id = ANY(…)`: see BatchedStatement on why a batched UPDATE names its keys twice.
    this.#sent = new BatchedStatement(db, {
      name: 'outbox-mark-sent',
      sql: `WITH x AS (
              SELECT * FROM jsonb_to_recordset(?::jsonb) AS x(id uuid, mid text, sent_at timestamptz, run_id uuid, thread_id uuid, text text, envelope jsonb)
            ), marked AS (
              UPDATE outbound_messages AS o SET status = 'sent', mid = x.mid, sent_at = x.sent_at, run_id = x.run_id
                FROM x WHERE o.id = x.id AND o.id = ANY(ARRAY(SELECT id FROM x)) RETURNING o.id
            )
            INSERT INTO conversation_messages (thread_id, direction, text, message, created_at)
            SELECT x.thread_id, 'out', x.text, x.envelope, x.sent_at FROM x JOIN marked ON marked.id = x.id`,
      toRow: (reply) => ({
        id: reply.id,
        mid: reply.mid ?? null,
        sent_at: reply.sentAt,
        run_id: reply.runId,
        thread_id: reply.threadId,
        text: textOf(reply.envelope),
        envelope: reply.envelope,
      }),
    });
  }

  /** The reply's record: `pending` to attempt it now; else what an earlier attempt left. */
  claim(claim: SendClaim, resendUnknown: boolean): Promise<SendRecord> {
    return this.#claims[resendUnknown ? 'resend' : 'once'].submit(claim);
  }

  markSent(reply: SentReply): Promise<void> {
    return this.#sent.submit(reply);
  }

  /** A send that failed: `failed` when the platform surely did not get it, `uncertain` when it may have. Rare, so not batched. */
  async markUnsent(id: string, status: 'failed' | 'uncertain', error: Record<string, unknown>): Promise<void> {
    await this.#db('outbound_messages').where({ id }).update({ status, error: storableJson(error) });
  }
}
