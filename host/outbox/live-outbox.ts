import type { ChannelSource, PlainInboundEvent, StdOutgoingMessageEnvelope } from '@bot-ai/api';
import type { Logger } from 'pino';
import type { ChannelRegistry } from '../channels/channel-registry.ts';
import type { ChannelCalls } from '../channels/calls/channel-calls.ts';
import { causes } from '../errors/cause-chain.ts';
import { codesWhere } from '../errors/codes-where.ts';
import { errorCode, messageOf } from '../errors/describe-error.ts';
import type { RunOutbox } from './run-outbox.ts';
import { fitToCapabilities, type SendCapabilities } from './fit-to-capabilities.ts';
import type { OutboxRecords, SendClaimer, SendRecord } from './outbox-records.ts';
import type { SentReply } from './sent-replies-sql.ts';
import { retryAfterOf } from '../errors/retry-after-of.ts';
import type { SendResult } from '../metrics/host-metrics.ts';

export interface LiveOutboxDeps {
  channels: ChannelRegistry<ChannelCalls>;
  now: () => Date;
  logger: Pick<Logger, 'warn'>;
  /** The process's one OutboxRecords, so the writes of concurrent runs share statements. */
  records: OutboxRecords;
  /**
   * Longest platform `Retry-After` waited for within the run (up to MAX_SENDS_IN_PLACE sends);
   * a longer one fails the run, and the event is tried again when the platform asked. Kept well under the claim
   * timeout, so no other instance takes the event over meanwhile.
   */
  retryAfterMaxMs: number;
  /** Counts what became of each send (metrics). */
  countSend?: (result: SendResult) => void;
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

/** Sends of one reply within one run when the platform keeps asking to wait (Retry-After) or the send keeps timing out. */
const MAX_SENDS_IN_PLACE = 3;

/** Errors after which the platform surely did not get the message, so a retried run may send it again. */
const NOT_DELIVERED = codesWhere('notDelivered');

/**
 * Sends a live run's replies through the channel's sandbox, each recorded before it is
 * attempted and marked after: marked sent by the statement that records the step (the runner
 * takes them with {@link LiveOutbox.takeSentReplies}), before the next step starts. A retried run computes the same send key (event, step, message)
 * and finds the record: a sent reply is not sent again; one the platform refused is sent again;
 * one whose outcome is unknown (the host died mid-send, the call timed out) is sent again with
 * the same key when the channel declares `idempotentSends` (its platform drops the repeat, so
 * the reply is neither lost nor doubled), and otherwise marked `uncertain` and never sent again
 * (at most once). The key travels as the send's idempotency key.
 */
export class LiveOutbox implements RunOutbox {
  #index = 0;
  /** Replies the platform accepted since the runner last took them. */
  #sent: SentReply[] = [];
  /** Claims the step's first send, when the runner has it carry the previous step's record. */
  #firstClaimer: SendClaimer | undefined;

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

  carryFirstClaim(claimer: SendClaimer): void {
    this.#firstClaimer = claimer;
  }

  takeSentReplies(): SentReply[] {
    const sent = this.#sent;
    this.#sent = [];
    return sent;
  }

  async #sendOne(envelope: StdOutgoingMessageEnvelope, resendUnknown: boolean): Promise<string | undefined> {
    const sendKey = `${this.target.inboundEventId}:${this.target.position}:${this.#index++}`;
    for (let attempt = 1; ; attempt += 1) {
      const row = await this.#claim(sendKey, envelope, resendUnknown);
      if (row.status !== 'pending') return row.mid ?? undefined;
      try {
        const mid = await this.#attempt(row.id, sendKey, envelope);
        this.deps.countSend?.(attempt > 1 ? 'resent' : 'sent');
        return mid;
      } catch (error) {
        const status = NOT_DELIVERED.has(errorCode(error) ?? '') || NOT_DELIVERED.has(causeCode(error) ?? '') ? 'failed' : 'uncertain';
        this.deps.countSend?.(status);
        await this.deps.records.markUnsent(row.id, status, { code: errorCode(error) ?? null, cause: causeCode(error) ?? null, message: messageOf(error) });
        // The platform refused it and said when to come back, soon enough to wait here (the event
        // keeps its claim), or the send timed out and may go again at once: recorded meanwhile,
        // so a host dying now sends it again.
        const waitMs = status === 'failed' ? retryAfterOf(error) : undefined;
        const again = waitMs === undefined ? resendsInPlace(error, status, resendUnknown) : waitMs <= this.deps.retryAfterMaxMs;
        if (!again || attempt >= MAX_SENDS_IN_PLACE) throw error;
        if (waitMs === undefined) {
          this.deps.logger.warn({ sendKey, code: errorCode(error) }, 'a send timed out; it is sent again under the same key');
          continue;
        }
        this.deps.logger.warn({ sendKey, waitMs }, 'the platform asked to wait before this reply is sent again');
        await new Promise((resolve) => setTimeout(resolve, waitMs));
      }
    }
  }

  async #attempt(id: string, sendKey: string, envelope: StdOutgoingMessageEnvelope): Promise<string | undefined> {
    const { event, source } = this.target;
    const { mid } = await this.deps.channels.call(source.channel, (sandbox) =>
      sandbox.send(event, source, envelope, { idempotencyKey: sendKey }),
    );
    this.#sent.push({ id, mid, sentAt: this.deps.now(), runId: this.target.runId, threadId: this.target.threadId, envelope });
    return mid;
  }

  /**
   * The record of this reply: `pending` to send it now; `sent`, or `uncertain` when it may have
   * been sent already and may not be sent again (`resendUnknown` false).
   */
  async #claim(sendKey: string, envelope: StdOutgoingMessageEnvelope, resendUnknown: boolean): Promise<SendRecord> {
    const { runId, inboundEventId, source, threadId } = this.target;
    const claimer: SendClaimer = this.#firstClaimer ?? ((claim, resend) => this.deps.records.claim(claim, resend));
    this.#firstClaimer = undefined;
    const row = await claimer({ sendKey, inboundEventId, runId, sourceId: source.id, threadId, envelope }, resendUnknown);
    if (row.status === 'uncertain') this.deps.logger.warn({ sendKey }, 'a reply whose delivery is unknown is not sent again');
    return row;
  }
}

/**
 * Whether a send that timed out goes again at once, within the run, rather than with a later
 * attempt of the event, which waits out its backoff (seconds, growing) while the conversation's
 * later messages wait behind it. Yes when it never reached the plugin (surely
 * not delivered, so safe on any channel), and when its call timed out mid-send on a channel whose
 * platform drops a repeated key (`resendUnknown`).
 */
function resendsInPlace(error: unknown, status: 'failed' | 'uncertain', resendUnknown: boolean): boolean {
  const code = errorCode(error);
  if (code === 'BOT_ERR_PLUGIN_SEND_NOT_STARTED') return true;
  // The platform call itself timed out: in the runner's call, or in the host's egress on its behalf.
  const timedOut = code === 'BOT_ERR_PLUGIN_CALL_TIMEOUT' || causeChainHas(error, 'BOT_ERR_EGRESS_TIMEOUT');
  return status === 'uncertain' && resendUnknown && timedOut;
}

function causeChainHas(error: unknown, code: string): boolean {
  return causes(error).some((link) => errorCode(link) === code);
}

function causeCode(error: unknown): string | undefined {
  return errorCode((error as { cause?: unknown } | null)?.cause);
}
