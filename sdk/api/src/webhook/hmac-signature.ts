import { SignatureRejectedError } from '../errors.ts';
import { nodeCrypto } from './node-crypto.ts';

const HEX_SHA256 = /^[0-9a-f]{64}$/i;

/**
 * The hex HMAC-SHA256 of the parts, in order, keyed by `secret`: what platforms sign webhooks
 * with. Give the body as the raw bytes received, never a re-serialised body.
 * @example hmacSha256Hex('app-secret', [req.rawBody]) // 'a642b595…'
 * @example hmacSha256Hex(signingSecret, [`v0:${timestamp}:`, req.rawBody]) // Slack's
 */
export function hmacSha256Hex(secret: string, parts: readonly (string | Uint8Array)[]): string {
  const hmac = nodeCrypto().createHmac('sha256', secret);
  for (const part of parts) hmac.update(part);
  return hmac.digest('hex');
}

/**
 * Throws `SignatureRejectedError` (the host answers 401) unless `given` is `prefix` followed by
 * the hex HMAC-SHA256 of `parts` under `secret`. The prefix and the hex digits are read without
 * regard to case and surrounding spaces; the digests are compared in constant time. An empty
 * secret, a missing signature or one of another form is a rejection.
 * @example checkHmacSha256(req.headers['x-hub-signature-256'], [req.rawBody], settings.app_secret, 'sha256=');
 */
export function checkHmacSha256(given: string | undefined, parts: readonly (string | Uint8Array)[], secret: string, prefix = ''): void {
  if (!secret) throw new SignatureRejectedError('The source has no secret to check signatures with');
  const value = given?.trim();
  if (!value) throw new SignatureRejectedError('The request carries no signature');
  const digest = value.slice(prefix.length);
  if (value.slice(0, prefix.length).toLowerCase() !== prefix.toLowerCase() || !HEX_SHA256.test(digest)) {
    throw new SignatureRejectedError(`The signature is not ${prefix}<hex SHA-256 digest>`);
  }
  if (!nodeCrypto().timingSafeEqual(Buffer.from(digest, 'hex'), Buffer.from(hmacSha256Hex(secret, parts), 'hex'))) {
    throw new SignatureRejectedError('The signature does not match the request');
  }
}
