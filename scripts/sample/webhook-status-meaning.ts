/** What each answer of the webhook route means to someone trying the sample channel. */
const MEANINGS: Record<number, string> = {
  200: 'accepted: the event is queued; the reply appears in the sample platform\'s terminal',
  400: 'payload rejected: the body is not in the sample platform\'s format',
  401: 'bad signature: --secret is not the source\'s webhook_secret',
  404: 'unknown source: no source has this ref (is npm start still starting? it prints these commands once the sample source exists)',
  405: 'not accepted: this source\'s channel takes no webhooks (a WebSocket channel)',
  413: 'too large: the body exceeds BOT_WEBHOOK_MAX_BODY_BYTES',
  503: 'channel loading (or disabled, failed or busy): try again in a few seconds',
};

/**
 * One line for an HTTP status the host answered a webhook with.
 * @example webhookStatusMeaning(401) // 'bad signature: …'
 */
export function webhookStatusMeaning(status: number): string {
  return MEANINGS[status] ?? 'unexpected answer';
}
