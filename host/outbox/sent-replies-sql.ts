import type { StdOutgoingMessageEnvelope } from '@bot-ai/api';
import { textOf } from '../conversations/message-history.ts';

// How the replies a step sent are recorded: marked sent and added to their thread's history, in
// the statement that records the step (see the run's end in workflows/runtime/run-end-sql.ts).

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
    sent_at: reply.sentAt.toJSON(),
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
