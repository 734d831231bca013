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
 * Thrown by `doSendMessage()` when the platform answers with a non-success status.
 * @example if (!response.ok) throw new PlatformResponseError(response.status);
 */
export class PlatformResponseError extends ChannelError {
  constructor(
    readonly status: number,
    detail = '',
  ) {
    super('BOT_ERR_CHANNEL_PLATFORM_STATUS', `The platform answered HTTP ${status}${detail ? `: ${detail}` : ''}`);
  }
}
