import { CHANNEL_ERROR } from './brands.ts';

/**
 * Base of the errors a channel throws on purpose. The `code` survives the worker boundary, and
 * the host maps some codes to HTTP statuses (see the subclasses).
 * @example throw new ChannelError('SAMPLE_ERR_QUOTA', 'The platform quota is exhausted');
 */
export class ChannelError extends Error {
  readonly [CHANNEL_ERROR] = true;
  constructor(
    readonly code: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = new.target.name;
  }
}

/**
 * Thrown by `verifySignature()` to reject a webhook: the host answers 401 and reveals nothing.
 * @example if (!signature) throw new SignatureRejectedError('missing X-Bot-Signature header');
 */
export class SignatureRejectedError extends ChannelError {
  constructor(reason: string) {
    super('BOT_ERR_CHANNEL_SIGNATURE_REJECTED', reason);
  }
}

/**
 * Thrown by `decode()` when the payload is not in the platform's format: the host answers 400.
 * A `ZodError` thrown by `decode()` is treated the same way.
 * @example throw new PayloadRejectedError('events must be an array');
 */
export class PayloadRejectedError extends ChannelError {
  constructor(reason: string, options?: { cause?: unknown }) {
    super('BOT_ERR_CHANNEL_PAYLOAD_REJECTED', reason, options);
  }
}

/**
 * Thrown when asked to send a message type the channel cannot send.
 * @example protected encodeCarousel(envelope) { throw new UnsupportedOutgoingFormatError(envelope.type); }
 */
export class UnsupportedOutgoingFormatError extends ChannelError {
  constructor(readonly type: string) {
    super('BOT_ERR_CHANNEL_UNSUPPORTED_FORMAT', `This channel cannot send "${type}" messages`);
  }
}

/**
 * Thrown by `doSendMessage()` when the platform answers with a non-success status. Pass the
 * platform's `Retry-After` (see {@link retryAfterMs}) for a 429 or 503: the host waits that long
 * before it sends again, instead of its own backoff.
 * @example if (!response.ok) throw new PlatformResponseError(response.status, '', { retryAfterMs: retryAfterMs(response.headers.get('retry-after')) });
 */
export class PlatformResponseError extends ChannelError {
  /** How long the platform asked to wait before the next attempt, in milliseconds. */
  readonly retryAfterMs: number | undefined;

  constructor(
    readonly status: number,
    detail = '',
    options: { retryAfterMs?: number | undefined } = {},
  ) {
    super('BOT_ERR_CHANNEL_PLATFORM_STATUS', `The platform answered HTTP ${status}${detail ? `: ${detail}` : ''}`);
    const wait = options.retryAfterMs;
    this.retryAfterMs = wait !== undefined && Number.isFinite(wait) && wait >= 0 ? wait : undefined;
  }
}

/**
 * An HTTP `Retry-After` value (delay seconds, or an HTTP date) in milliseconds from `now`;
 * undefined when absent or unreadable, 0 for a date already past.
 * @example retryAfterMs('2') // 2000
 */
export function retryAfterMs(header: string | null | undefined, now: Date = new Date()): number | undefined {
  const value = header?.trim();
  if (!value) return undefined;
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now.getTime());
}

/**
 * What the SDK's `fetch` (and `this.http`) rejects with when the host refused the request or
 * could not complete it. `code` is the host's reason: `BOT_ERR_EGRESS_HOST_NOT_ALLOWED`,
 * `BOT_ERR_EGRESS_ADDRESS_NOT_PUBLIC`, `BOT_ERR_EGRESS_TIMEOUT`, … (see the README's egress
 * section), or `BOT_ERR_EGRESS_UNAVAILABLE` when no host is there to perform it (a unit test
 * that did not install host services).
 * @example
 * const code = await fetch('https://undeclared.example').catch((error: EgressError) => error.code);
 * // 'BOT_ERR_EGRESS_HOST_NOT_ALLOWED'
 */
export class EgressError extends ChannelError {}
