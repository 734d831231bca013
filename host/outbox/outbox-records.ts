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

/**
 * A reply the platform accepted, not yet marked sent: the runner records it with its step's
 * record (RunRecords), one statement for both.
 */
export interface SentReply {
  id: string;
  mid: string | undefined;
  sentAt: Date;
  runId: string;
  threadId: string;
  envelope: StdOutgoingMessageEnvelope;
}

/**
 * The fields {@link SENT_REPLIES_CTES} reads of each reply the platform accepted; `ord`, its
 * place among its step's replies, orders their history entries.
 */
const SENT_REPLY_COLUMNS = 'id uuid, mid text, sent_at timestamptz, run_id uuid, thread_id uuid, text text, envelope jsonb, ord int';

/**
 * A step's sent replies, in the order they were sent, as the jsonb array {@link SENT_REPLIES_CTES} reads.
 * @example const sent = sentRepliesColumns(outbox.takeSentReplies())
 */
export function sentRepliesColumns(replies: readonly SentReply[]): Record<string, unknown>[] {
  return replies.map((reply, ord) => ({ ...sentReplyColumns(reply), ord }));
}

function sentReplyColumns(reply: SentReply): Record<string, unknown> {
  return {
    id: reply.id,
    mid: reply.mid ?? null,
    sent_at: reply.sentAt,
    run_id: reply.runId,
    thread_id: reply.threadId,
    text: textOf(reply.envelope),
    envelope: reply.envelope,
  };
}

/**
 * CTEs (for a `WITH` list, named after `name`) that mark sent the replies listed in the jsonb
 * column `column` of the relation `rows` (arrays from {@link sentRepliesColumns}; null for none)
 * and add each to its thread's history (what `input_mode: history` reads), in the order they
 * were sent. The statement that records a step says these. A reply already marked (a statement
 * written again after its answer was lost) is left as it is and gets no second history entry.
 * @example sql: `WITH x AS (SELECT * FROM jsonb_to_recordset(?::jsonb) AS x(…, sent jsonb)), ${SENT_REPLIES_CTES('x', 'sent', 'step')} SELECT …`
 */
export const SENT_REPLIES_CTES = (rows: string, column: string, name: string) => `
  ${name}_replies AS (
    SELECT r.* FROM ${rows} AS x CROSS JOIN LATERAL jsonb_to_recordset(x.${column}) AS r(${SENT_REPLY_COLUMNS})
  ), ${name}_marked AS (
    UPDATE outbound_messages AS o SET status = 'sent', mid = r.mid, sent_at = r.sent_at, run_id = r.run_id
      FROM ${name}_replies AS r
     WHERE o.id = r.id AND o.id = ANY(ARRAY(SELECT id FROM ${name}_replies)) AND o.status <> 'sent' RETURNING o.id
  ), ${name}_history AS (
    INSERT INTO conversation_messages (thread_id, direction, text, message, created_at)
    SELECT r.thread_id, 'out', r.text, r.envelope, r.sent_at FROM ${name}_replies AS r JOIN ${name}_marked AS m ON m.id = r.id
     ORDER BY r.ord
  )`;

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
 * The outbox's own writes: claiming replies before they are attempted, batched across the runs in
 * flight (BatchedStatement), and marking a failed one. Marking one sent is the step record's
 * business (SENT_REPLIES_CTES). One instance serves every LiveOutbox of a process.
 */
export class OutboxRecords {
  readonly #claims: Record<'resend' | 'once', BatchedStatement<SendClaim, SendRecord & { send_key: string }, SendRecord>>;
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
  }

  /** The reply's record: `pending` to attempt it now; else what an earlier attempt left. */
  claim(claim: SendClaim, resendUnknown: boolean): Promise<SendRecord> {
    return this.#claims[resendUnknown ? 'resend' : 'once'].submit(claim);
  }

  /** A send that failed: `failed` when the platform surely did not get it, `uncertain` when it may have. Rare, so not batched. */
  async markUnsent(id: string, status: 'failed' | 'uncertain', error: Record<string, unknown>): Promise<void> {
    await this.#db('outbound_messages').where({ id }).update({ status, error: storableJson(error) });
  }
}
