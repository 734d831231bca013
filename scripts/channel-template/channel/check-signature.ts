import { createHmac, timingSafeEqual } from 'node:crypto';
import { SignatureRejectedError } from '@bot-ai/api';

/** Change: the header your platform signs webhooks with (lower-case; header names arrive so). */
export const SIGNATURE_HEADER = 'x-signature';

const HEX_SHA256 = /^[0-9a-f]{64}$/i;

/**
 * The signature of a webhook: the hex HMAC-SHA256 of the exact body bytes, keyed by the source's
 * webhook secret. Change it when your platform signs differently (a `sha256=` prefix, base64, a
 * timestamp in the signed text, …).
 * @example signBody(Buffer.from('{"events":[]}'), 'secret') // 'a642b595…'
 */
export function signBody(rawBody: Uint8Array, secret: string): string {
  return createHmac('sha256', secret).update(rawBody).digest('hex');
}

/**
 * Throws `SignatureRejectedError` (the host answers 401) unless `signature` signs `rawBody` under
 * `secret`. A missing header, body or secret is a rejection; digests are compared in constant time.
 * @example checkSignature(req.headers[SIGNATURE_HEADER], req.rawBody, settings.webhook_secret);
 */
export function checkSignature(signature: string | undefined, rawBody: Uint8Array | undefined, secret: string): void {
  if (!secret) throw new SignatureRejectedError('The source has no webhook secret');
  if (!signature) throw new SignatureRejectedError(`Missing ${SIGNATURE_HEADER} header`);
  if (!rawBody || rawBody.byteLength === 0) throw new SignatureRejectedError('Missing request body');
  if (!HEX_SHA256.test(signature)) throw new SignatureRejectedError('The signature is not a hex SHA-256 digest');
  if (!timingSafeEqual(Buffer.from(signature, 'hex'), Buffer.from(signBody(rawBody, secret), 'hex'))) {
    throw new SignatureRejectedError('The signature does not match the body');
  }
}
