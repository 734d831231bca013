import { checkHmacSha256, hmacSha256Hex, SignatureRejectedError } from '@bot-ai/api';

/** The header Meta signs webhook POSTs with (header names arrive lower-case). */
export const WHATSAPP_SIGNATURE_HEADER = 'x-hub-signature-256';

/** What precedes the hex digest in the header. */
export const WHATSAPP_SIGNATURE_PREFIX = 'sha256=';

/**
 * The `X-Hub-Signature-256` value Meta sends: `sha256=` and the hex HMAC-SHA256 of the exact
 * body bytes, keyed by the app secret.
 * @example signWhatsAppBody(Buffer.from('Hello, World!'), "It's a Secret to Everybody") // 'sha256=757107ea…'
 */
export function signWhatsAppBody(rawBody: Uint8Array, appSecret: string): string {
  return `${WHATSAPP_SIGNATURE_PREFIX}${hmacSha256Hex(appSecret, [rawBody])}`;
}

/**
 * Throws `SignatureRejectedError` (HTTP 401) unless `header` is the signature of `rawBody` under
 * `appSecret`. A missing header, body or secret is a rejection; the digests are compared in
 * constant time (the SDK's checkHmacSha256).
 * @example checkWhatsAppSignature(req.headers['x-hub-signature-256'], req.rawBody, settings.app_secret);
 */
export function checkWhatsAppSignature(header: string | undefined, rawBody: Uint8Array | undefined, appSecret: string): void {
  if (!appSecret) throw new SignatureRejectedError('The source has no app secret');
  if (!header) throw new SignatureRejectedError(`Missing ${WHATSAPP_SIGNATURE_HEADER} header`);
  if (!rawBody || rawBody.byteLength === 0) throw new SignatureRejectedError('Missing request body');
  checkHmacSha256(header, [rawBody], appSecret, WHATSAPP_SIGNATURE_PREFIX);
}
