import { checkHmacSha256, hmacSha256Hex, SignatureRejectedError } from '@bot-ai/api';

/** The header Slack signs its requests with (header names arrive lower-case). */
export const SLACK_SIGNATURE_HEADER = 'x-slack-signature';

/** The header with the Unix time (seconds) the signature covers. */
export const SLACK_TIMESTAMP_HEADER = 'x-slack-request-timestamp';

/** Slack's advice: refuse a request whose timestamp is more than five minutes from now (replays). */
export const SLACK_MAX_SIGNATURE_AGE_SECONDS = 300;

/** The only signature version Slack uses so far. */
const VERSION = 'v0';

const TIMESTAMP_FORMAT = /^\d{1,12}$/;

/**
 * The `X-Slack-Signature` of a request: `v0=` and the hex HMAC-SHA256 of `v0:{timestamp}:{body}`
 * keyed by the app's signing secret, over the exact body bytes.
 * @example signSlackRequest(Buffer.from('token=xyzz0W…'), '1531420618', '8f742231b10e8888abcd99yyyzzz85a5') // 'v0=a2114d57…'
 */
export function signSlackRequest(rawBody: Uint8Array | string, timestamp: string | number, secret: string): string {
  return `${VERSION}=${hmacSha256Hex(secret, [`${VERSION}:${timestamp}:`, rawBody])}`;
}

/** What a signature check needs from one request. */
export interface SlackSignatureInput {
  signature: string | undefined;
  timestamp: string | undefined;
  rawBody: Uint8Array | undefined;
  secret: string;
  /** The current time in milliseconds since the epoch. */
  nowMs: number;
}

/**
 * Throws `SignatureRejectedError` (HTTP 401) unless `signature` signs `rawBody` at `timestamp`
 * under `secret`, and `timestamp` is within five minutes of `nowMs` (either way: a clock ahead
 * is as suspicious as a replay). A missing header, body or secret is a rejection; the digests
 * are compared in constant time.
 * @example checkSlackSignature({ signature: req.headers['x-slack-signature'], timestamp: req.headers['x-slack-request-timestamp'], rawBody: req.rawBody, secret, nowMs: Date.now() });
 */
export function checkSlackSignature({ signature, timestamp, rawBody, secret, nowMs }: SlackSignatureInput): void {
  if (!secret) throw new SignatureRejectedError('The source has no signing secret');
  if (!signature) throw new SignatureRejectedError(`Missing ${SLACK_SIGNATURE_HEADER} header`);
  if (!timestamp) throw new SignatureRejectedError(`Missing ${SLACK_TIMESTAMP_HEADER} header`);
  if (!rawBody || rawBody.byteLength === 0) throw new SignatureRejectedError('Missing request body');
  if (!TIMESTAMP_FORMAT.test(timestamp)) throw new SignatureRejectedError('The request timestamp is not a Unix time in seconds');
  if (Math.abs(nowMs / 1000 - Number(timestamp)) > SLACK_MAX_SIGNATURE_AGE_SECONDS) {
    throw new SignatureRejectedError('The request timestamp is more than five minutes from now');
  }
  checkHmacSha256(signature, [`${VERSION}:${timestamp}:`, rawBody], secret, `${VERSION}=`);
}
