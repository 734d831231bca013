import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * True when the token of a GET handshake equals the configured one. An empty configured token
 * never matches (a source without one cannot be verified). Compared in constant time: both are
 * hashed first, so the buffers have equal length whatever the inputs.
 * @example matchesVerifyToken(req.query.verify_token, settings.verify_token)
 */
export function matchesVerifyToken(given: string | undefined, configured: string): boolean {
  if (!configured || given === undefined) return false;
  return timingSafeEqual(sha256(given), sha256(configured));
}

function sha256(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}
