import type { ChannelSource, PlainInboundEvent, StdOutgoingMessageEnvelope } from '@bot-ai/api';
import type { Knex } from 'knex';
import { PreparedStatement } from '../db/prepared-statement.ts';
import { storableJson, storableText } from '../json/storable.ts';
import type { Logger } from 'pino';
import type { ChannelRegistry } from '../channels/channel-registry.ts';
import type { ChannelSandbox } from '../channels/sandbox/channel-sandbox.ts';
import { errorCode, messageOf } from '../channels/sandbox/sandbox-error.ts';
import { textOf } from '../conversations/message-history.ts';
import type { RunOutbox } from '../workflows/runtime/action.ts';
import { fitToCapabilities, type SendCapabilities } from './fit-to-capabilities.ts';

export interface LiveOutboxDeps {
  db: Knex;
  channels: ChannelRegistry<ChannelSandbox>;
  now: () => Date;
  logger: Pick<Logger, 'warn'>;
}

/** Where the replies of one step go, and the key that names each of them. */
export interface LiveSendTarget {
  runId: string;
  inboundEventId: string;
  event: PlainInboundEvent;
  source: ChannelSource & { channel: string };
  threadId: string;
  /** The step's position in the flow: with the message's index it makes the send key. */
  position: number;
}

/** Errors after which the platform surely did not get the message, so a retried run may send it again. */
const NOT_DELIVERED = new Set(['BOT_ERR_CHANNEL_PLATFORM_STATUS', 'BOT_ERR_CHANNEL_UNSUPPORTED_FORMAT', 'BOT_ERR_CHANNEL_UNAVAILABLE', 'BOT_ERR_PLUGIN_QUEUE_FULL', 'BOT_ERR_PLUGIN_SANDBOX_CLOSED', 'BOT_ERR_PLUGIN_SEND_NOT_STARTED']);

type SendRow = { id: string; status: 'pending' | 'sent' | 'failed' | 'uncertain'; mid: string | null };

/**
 * Records a reply before it is attempted, or finds the record a retried run left: a refused send
 * (`failed`) is attempted again; one of unknown outcome (`pending`, `uncertain`) again only when
 * the last parameter says the platform drops repeated keys, else it becomes `uncertain`.
 */
const CLAIM_SEND = new PreparedStatement<SendRow>(
  'outbox-claim-send',
  `INSERT INTO outbound_messages (send_key, inbound_event_id, run_id, source_id, thread_id, envelope, status, attempts)
   VALUES (?, ?, ?, ?, ?, ?, 'pending', 1)
   ON CONFLICT (send_key) DO UPDATE SET attempts = outbound_messages.attempts + 1,
     status = CASE WHEN outbound_messages.status = 'failed' THEN 'pending'
                   WHEN outbound_messages.status IN ('pending', 'uncertain') AND ?::boolean THEN 'pending'
                   WHEN outbound_messages.status = 'pending' THEN 'uncertain'
                   ELSE outbound_messages.status END
   RETURNING id, status, mid`,
);

/** Marks a reply sent and adds it to its thread's history (what `input_mode: history` reads). */
const MARK_SENT = new PreparedStatement<never>(
  'outbox-mark-sent',
  `WITH marked AS (UPDATE outbound_messages SET status = 'sent', mid = ?, sent_at = ?, run_id = ? WHERE id = ? RETURNING id)
   INSERT INTO conversation_messages (thread_id, direction, text, message, created_at)
   SELECT ?::uuid, 'out', ?::text, ?::jsonb, ?::timestamptz FROM marked`,
);

/**
 * Sends a live run's replies through the channel's sandbox, each recorded before it is
 * attempted and marked after. A retried run computes the same send key (event, step, message)
 * and finds the record: a sent reply is not sent again; one the platform refused is sent again;
 * one whose outcome is unknown (the host died mid-send, the call timed out) is sent again with
 * the same key when the channel declares `idempotentSends` (its platform drops the repeat, so
 * the reply is neither lost nor doubled), and otherwise marked `uncertain` and never sent again
 * (at most once). The key travels as the send's idempotency key.
 */
export class LiveOutbox implements RunOutbox {
  #index = 0;

  constructor(
    private readonly deps: LiveOutboxDeps,
    private readonly target: LiveSendTarget,
  ) {}

  async send(envelope: StdOutgoingMessageEnvelope): Promise<{ mid: string | undefined }> {
    const channel = this.deps.channels.running(this.target.source.channel);
    const capabilities = (channel?.description.capabilities ?? {}) as SendCapabilities & { idempotentSends?: boolean };
    const resendUnknown = capabilities.idempotentSends === true;
    let mid: string | undefined;
    for (const part of fitToCapabilities(envelope, capabilities)) mid = (await this.#sendOne(part, resendUnknown)) ?? mid;
    return { mid };
  }

  async #sendOne(envelope: StdOutgoingMessageEnvelope, resendUnknown: boolean): Promise<string | undefined> {
    const { inboundEventId, event, source, position } = this.target;
    const sendKey = `${inboundEventId}:${position}:${this.#index++}`;
    const row = await this.#claim(sendKey, envelope, resendUnknown);
    if (row.status !== 'pending') return row.mid ?? undefined;
    try {
      const { mid } = await this.deps.channels.call(source.channel, (sandbox) =>
        sandbox.send(event, { id: source.id, ref: source.ref, settings: source.settings, active: source.active }, envelope, { idempotencyKey: sendKey }),
      );
      await this.#markSent(row.id, mid, envelope);
      return mid;
    } catch (error) {
      const status = NOT_DELIVERED.has(errorCode(error) ?? '') || NOT_DELIVERED.has(causeCode(error) ?? '') ? 'failed' : 'uncertain';
      await this.deps.db('outbound_messages')
        .where({ id: row.id })
        .update({ status, error: storableJson({ code: errorCode(error) ?? null, cause: causeCode(error) ?? null, message: messageOf(error) }) });
      throw error;
    }
  }

  /** Marks the reply sent and adds it to the thread's history (what `input_mode: history` reads), in one statement. */
  async #markSent(id: string, mid: string | undefined, envelope: StdOutgoingMessageEnvelope): Promise<void> {
    const now = this.deps.now();
    await MARK_SENT.run(this.deps.db, [mid ?? null, now, this.target.runId, id, this.target.threadId, storableText(textOf(envelope)), storableJson(envelope), now]);
  }

  /**
   * The record of this reply: `pending` to send it now; `sent`, or `uncertain` when it may have
   * been sent already and may not be sent again (`resendUnknown` false).
   */
  async #claim(sendKey: string, envelope: StdOutgoingMessageEnvelope, resendUnknown: boolean): Promise<SendRow> {
    const { runId, inboundEventId, source, threadId } = this.target;
    const inserted = await CLAIM_SEND.run(this.deps.db, [sendKey, inboundEventId, runId, source.id, threadId, storableJson(envelope), resendUnknown]);
    const row = inserted.rows[0]!;
    if (row.status === 'uncertain') this.deps.logger.warn({ sendKey }, 'a reply whose delivery is unknown is not sent again');
    return row;
  }
}

function causeCode(error: unknown): string | undefined {
  return errorCode((error as { cause?: unknown } | null)?.cause);
}
