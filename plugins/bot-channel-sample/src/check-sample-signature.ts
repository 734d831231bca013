import { createHmac, timingSafeEqual } from 'node:crypto';
import { SignatureRejectedError } from '@bot-ai/api';

/** The header the platform signs its webhooks with (header names arrive lower-case). */
export const SAMPLE_SIGNATURE_HEADER = 'x-bot-signature';

const HEX_SHA256 = /^[0-9a-f]{64}$/i;

/**
 * The signature the platform sends: the hex HMAC-SHA256 of the exact body bytes, keyed by the
 * source's webhook secret.
 * @example signSampleBody(Buffer.from('{"events":[]}'), 'secret') // 'a642b595…'
 */
export function signSampleBody(rawBody: Uint8Array, secret: string): string {
  return createHmac('sha256', secret).update(rawBody).digest('hex');
}

/**
 * Throws `SignatureRejectedError` (HTTP 401) unless `signature` is the signature of `rawBody`
 * under `secret`. A missing header, body or secret is a rejection; digests are compared in
 * constant time.
 * @example checkSampleSignature(req.headers['x-bot-signature'], req.rawBody, settings.webhook_secret);
 */
export function checkSampleSignature(signature: string | undefined, rawBody: Uint8Array | undefined, secret: string): void {
  if (!secret) throw new SignatureRejectedError('The source has no webhook secret');
  if (!signature) throw new SignatureRejectedError(`Missing ${SAMPLE_SIGNATURE_HEADER} header`);
  if (!rawBody || rawBody.byteLength === 0) throw new SignatureRejectedError('Missing request body');
  if (!HEX_SHA256.test(signature)) throw new SignatureRejectedError('The signature is not a hex SHA-256 digest');
  const expected = Buffer.from(signSampleBody(rawBody, secret), 'hex');
  if (!timingSafeEqual(Buffer.from(signature, 'hex'), expected)) {
    throw new SignatureRejectedError('The signature does not match the body');
  }
}
