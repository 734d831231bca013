import type { StdOutgoingMessageEnvelope } from '@bot-ai/api';
import type { Knex } from 'knex';
import { BatchedStatement } from '../db/batched-statement.ts';
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

/** The columns of a SendClaim but its run, for a statement whose rows name the run already. */
export const SEND_CLAIM_COLUMNS_BUT_RUN = 'send_key text, inbound_event_id uuid, source_id uuid, thread_id uuid, envelope jsonb';

/** The columns of a SendClaim as a statement's rows carry it (see {@link sendClaimColumns}). */
export const SEND_CLAIM_COLUMNS = `${SEND_CLAIM_COLUMNS_BUT_RUN}, run_id uuid`;

export function sendClaimColumns(claim: SendClaim): Record<string, unknown> {
  return {
    send_key: claim.sendKey,
    inbound_event_id: claim.inboundEventId,
    run_id: claim.runId,
    source_id: claim.sourceId,
    thread_id: claim.threadId,
    envelope: claim.envelope,
  };
}

/**
 * Records replies before they are attempted, or finds the records a retried run left: a refused
 * send (`failed`) is attempted again; one of unknown outcome (`pending`, `uncertain`) again only
 * when the platform drops repeated keys (`resendUnknown`), else it becomes `uncertain`. `rows` is
 * a relation with {@link SEND_CLAIM_COLUMNS}; a CTE of another statement may say it too (an
 * earlier step's record committed with a send, see RunRecords).
 */
export function claimSendsSql(rows: string, resendUnknown: boolean): string {
  return `INSERT INTO outbound_messages AS o (send_key, inbound_event_id, run_id, source_id, thread_id, envelope, status, attempts)
          SELECT send_key, inbound_event_id, run_id, source_id, thread_id, envelope, 'pending', 1 FROM ${rows}
          ON CONFLICT (send_key) DO UPDATE SET attempts = o.attempts + 1,
            status = CASE WHEN o.status = 'failed' THEN 'pending'
                          WHEN o.status IN ('pending', 'uncertain') AND ${resendUnknown} THEN 'pending'
                          WHEN o.status = 'pending' THEN 'uncertain'
                          ELSE o.status END
          RETURNING o.send_key, o.id, o.status, o.mid`;
}

/** Claims a send: the first of a step's may commit an earlier step's record with it (see RunOutbox.carryFirstClaim). */
export type SendClaimer = (claim: SendClaim, resendUnknown: boolean) => Promise<SendRecord>;

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
        sql: claimSendsSql(`jsonb_to_recordset(?::jsonb) AS x(${SEND_CLAIM_COLUMNS})`, resendUnknown),
        toRow: sendClaimColumns,
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
