import { checkHmacSha256, hmacSha256Hex, SignatureRejectedError } from '@bot-ai/api';

/** The header the platform signs its webhooks with (header names arrive lower-case). */
export const SAMPLE_SIGNATURE_HEADER = 'x-bot-signature';

/**
 * The signature the platform sends: the hex HMAC-SHA256 of the exact body bytes, keyed by the
 * source's webhook secret.
 * @example signSampleBody(Buffer.from('{"events":[]}'), 'secret') // 'a642b595…'
 */
export function signSampleBody(rawBody: Uint8Array, secret: string): string {
  return hmacSha256Hex(secret, [rawBody]);
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
  checkHmacSha256(signature, [rawBody], secret);
}
