import { constantTimeEqual, SignatureRejectedError } from '@bot-ai/api';

/**
 * The header Telegram sends the webhook's `secret_token` in (header names arrive lower-case).
 * @example const given = req.headers[TELEGRAM_SECRET_TOKEN_HEADER];
 */
export const TELEGRAM_SECRET_TOKEN_HEADER = 'x-telegram-bot-api-secret-token';

/**
 * Throws `SignatureRejectedError` (HTTP 401) unless `given` (the header's value) equals the
 * source's `secret_token`. Telegram does not sign bodies: it repeats, in every update, the secret
 * that `setWebhook` gave it, so the token is the whole proof. Compared in constant time; an empty
 * configured secret rejects everything, as does a missing header.
 * @example checkTelegramSecretToken(req.headers['x-telegram-bot-api-secret-token'], settings.secret_token);
 */
export function checkTelegramSecretToken(given: string | undefined, secretToken: string): void {
  if (!secretToken) throw new SignatureRejectedError('The source has no webhook secret token');
  if (given === undefined) throw new SignatureRejectedError(`Missing ${TELEGRAM_SECRET_TOKEN_HEADER} header`);
  if (!constantTimeEqual(given, secretToken)) throw new SignatureRejectedError(`The ${TELEGRAM_SECRET_TOKEN_HEADER} header does not match the secret token`);
}
