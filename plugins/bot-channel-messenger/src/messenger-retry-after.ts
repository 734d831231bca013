import { retryAfterMs } from '@bot-ai/api';

/**
 * How long to wait after a rate-limited Graph API answer when it names no delay: Meta documents no
 * fixed one (its limits are counted over rolling windows), so a minute, which keeps the retry
 * well inside the outbox's hour.
 * @example new PlatformResponseError(400, detail, { retryAfterMs: MESSENGER_RATE_LIMIT_DELAY_MS })
 */
export const MESSENGER_RATE_LIMIT_DELAY_MS = 60_000;

/** Graph error codes that mean "too many calls": 4 (app limit), 613 (Send API limit). */
const RATE_LIMIT_CODES = new Set([4, 613]);

/**
 * The wait before the next attempt that a non-success Graph API answer asks for: its
 * `Retry-After` header; else, for a rate limit (HTTP 429, or a Graph error body
 * `{ error: { code: 4 | 613 } }`, which Meta answers with HTTP 400), `MESSENGER_RATE_LIMIT_DELAY_MS`;
 * else `undefined` (the host's own backoff).
 * @example messengerRetryAfterMs(response, { error: { code: 613, message: '(#613) Calls to this api have exceeded the rate limit.' } }) // 60000
 */
export function messengerRetryAfterMs(response: Pick<Response, 'status' | 'headers'>, body: unknown): number | undefined {
  const fromHeader = retryAfterMs(response.headers.get('retry-after'));
  if (fromHeader !== undefined) return fromHeader;
  return response.status === 429 || isRateLimitError(body) ? MESSENGER_RATE_LIMIT_DELAY_MS : undefined;
}

function isRateLimitError(body: unknown): boolean {
  const code = (body as { error?: { code?: unknown } } | null | undefined)?.error?.code;
  return typeof code === 'number' && RATE_LIMIT_CODES.has(code);
}
