import { checkHmacSha256, hmacSha256Hex, SignatureRejectedError } from '@bot-ai/api';

/** Change: the header your platform signs webhooks with (lower-case; header names arrive so). */
export const SIGNATURE_HEADER = 'x-signature';

/**
 * The signature of a webhook: the hex HMAC-SHA256 of the exact body bytes, keyed by the source's
 * webhook secret. Change it when your platform signs differently: a prefix (`sha256=`) is
 * `checkHmacSha256`'s last argument, and a timestamp in the signed text one more part
 * (`[\`v0:${timestamp}:\`, rawBody]`, as Slack signs).
 * @example signBody(Buffer.from('{"events":[]}'), 'secret') // 'a642b595…'
 */
export function signBody(rawBody: Uint8Array, secret: string): string {
  return hmacSha256Hex(secret, [rawBody]);
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
  checkHmacSha256(signature, [rawBody], secret);
}
