import { checkHmacSha256, hmacSha256Hex, SignatureRejectedError } from '@bot-ai/api';

/**
 * The header Meta signs webhook POSTs with (header names arrive lower-case).
 * @example const signature = req.headers[MESSENGER_SIGNATURE_HEADER];
 */
export const MESSENGER_SIGNATURE_HEADER = 'x-hub-signature-256';

/**
 * The `X-Hub-Signature-256` value Meta sends: `sha256=` and the hex HMAC-SHA256 of the exact body
 * bytes, keyed by the app secret.
 * @example signMessengerBody(Buffer.from('{"object":"page","entry":[]}'), 'app-secret') // 'sha256=…'
 */
export function signMessengerBody(rawBody: Uint8Array, appSecret: string): string {
  return `sha256=${hmacSha256Hex(appSecret, [rawBody])}`;
}

/**
 * Throws `SignatureRejectedError` (HTTP 401) unless `header` is the signature of `rawBody` under
 * `appSecret`. A missing header, body or secret is a rejection (a source without an app secret
 * accepts nothing); the digests are compared in constant time.
 * @example checkMessengerSignature(req.headers['x-hub-signature-256'], req.rawBody, settings.app_secret);
 */
export function checkMessengerSignature(header: string | undefined, rawBody: Uint8Array | undefined, appSecret: string): void {
  if (!appSecret) throw new SignatureRejectedError('The source has no app secret');
  if (!header) throw new SignatureRejectedError(`Missing ${MESSENGER_SIGNATURE_HEADER} header`);
  if (!rawBody || rawBody.byteLength === 0) throw new SignatureRejectedError('Missing request body');
  checkHmacSha256(header, [rawBody], appSecret, 'sha256=');
}
