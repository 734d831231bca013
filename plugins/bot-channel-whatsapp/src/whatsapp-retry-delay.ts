import { retryAfterMs } from '@bot-ai/api';

/** Cloud API error code: too many messages from the business number to one user (about 1 per 6 s). */
export const WHATSAPP_PAIR_RATE_LIMIT_CODE = 131056;

/** Cloud API error code: the business number's throughput (80 messages/s by default) is used up. */
export const WHATSAPP_THROUGHPUT_LIMIT_CODE = 130429;

/** How long to wait after a pair-rate error: the pair rate allows about one message per 6 s. */
export const WHATSAPP_PAIR_RATE_RETRY_MS = 6_000;

/** How long to wait after a throughput error that names no `Retry-After`: throughput is per second. */
export const WHATSAPP_THROUGHPUT_RETRY_MS = 1_000;

/**
 * The wait before sending again that a non-success Cloud API answer asks for: its `Retry-After`
 * header when present, else a delay by the Graph error `code` in the body
 * (`{ error: { code, message } }`): 131056 (pair rate) → 6000 ms, 130429 (throughput) → 1000 ms.
 * Those errors may come with HTTP 400 as well as 429: the code, not the status, decides.
 * Undefined for any other answer (the host's own backoff applies).
 * @example whatsAppRetryAfterMs(response, { error: { code: 131056, message: '(#131056) (Business Account, Consumer Account) pair rate limit hit' } }) // 6000
 */
export function whatsAppRetryAfterMs(response: Pick<Response, 'headers'>, body: unknown): number | undefined {
  const header = retryAfterMs(response.headers.get('retry-after'));
  if (header !== undefined) return header;
  const code = graphErrorCode(body);
  if (code === WHATSAPP_PAIR_RATE_LIMIT_CODE) return WHATSAPP_PAIR_RATE_RETRY_MS;
  if (code === WHATSAPP_THROUGHPUT_LIMIT_CODE) return WHATSAPP_THROUGHPUT_RETRY_MS;
  return undefined;
}

/** `error.code` of a Graph error body, as a number (some proxies send it as a string). */
function graphErrorCode(body: unknown): number | undefined {
  const code = (body as { error?: { code?: unknown } } | null | undefined)?.error?.code;
  if (typeof code === 'number') return code;
  return typeof code === 'string' && /^\d+$/.test(code) ? Number(code) : undefined;
}
