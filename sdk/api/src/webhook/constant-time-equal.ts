import { nodeCrypto } from './node-crypto.ts';

/**
 * True when `given` equals `expected`, compared in constant time: both are hashed first, so the
 * comparison takes as long whatever their lengths and contents. An empty `expected` never
 * matches (a source with no secret configured accepts nothing), nor does a missing `given`.
 * @example if (!constantTimeEqual(req.headers['x-telegram-bot-api-secret-token'], secret)) throw new SignatureRejectedError('bad token');
 */
export function constantTimeEqual(given: string | undefined, expected: string): boolean {
  if (!expected || given === undefined) return false;
  return nodeCrypto().timingSafeEqual(sha256(given), sha256(expected));
}

function sha256(text: string): Buffer {
  return nodeCrypto().createHash('sha256').update(text, 'utf8').digest();
}
