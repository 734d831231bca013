import { ChannelError, PlatformResponseError, retryAfterMs } from '../errors.ts';
import { fetch } from '../egress/fetch.ts';

/** How much of an error answer's body goes into the error message. */
const MAX_DETAIL_CHARS = 200;

/** How one platform call is made and how its failures are named. */
export interface PlatformCallOptions {
  /** The call is abandoned after this long (keep it below the host's per-call limit). */
  timeoutMs: number;
  /** The code of the ChannelError thrown when no answer came, e.g. `TELEGRAM_ERR_UNREACHABLE`. */
  unreachableCode: string;
  /**
   * The platform's wait before the next attempt, read from a non-success answer; default: the
   * `Retry-After` header. Platforms that put it in the body (Telegram's `parameters.retry_after`)
   * read it here.
   */
  retryAfterMs?: (response: Response, body: unknown) => number | undefined;
}

/**
 * One request to a platform's API through the SDK's `fetch` (the host performs it), answered
 * with the parsed JSON body of a 2xx answer (undefined when the body is not JSON).
 * - No answer in time, unreachable, or refused by the host: `ChannelError(unreachableCode)`
 *   whose message says which, and whose cause keeps the host's `BOT_ERR_EGRESS_*` code.
 * - A non-2xx answer: `PlatformResponseError` with the status, the start of the body and the
 *   platform's retry delay, which the host's outbox waits before it sends again.
 * @example const body = await callPlatform(`${base}/sendMessage`, { method: 'POST', body: json }, { timeoutMs: 10_000, unreachableCode: 'TELEGRAM_ERR_UNREACHABLE' });
 */
export async function callPlatform(url: string, init: RequestInit, options: PlatformCallOptions): Promise<unknown> {
  const response = await reach(url, init, options);
  const text = await response.text().catch(() => '');
  const body = parseJson(text);
  if (!response.ok) {
    const wait = options.retryAfterMs?.(response, body) ?? retryAfterMs(response.headers.get('retry-after'));
    throw new PlatformResponseError(response.status, text.trim().slice(0, MAX_DETAIL_CHARS), { retryAfterMs: wait });
  }
  return body;
}

async function reach(url: string, init: RequestInit, options: PlatformCallOptions): Promise<Response> {
  try {
    return await fetch(url, { ...init, signal: AbortSignal.timeout(options.timeoutMs) });
  } catch (error) {
    // The origin only: a path may hold a token (Telegram puts the bot token in it).
    throw new ChannelError(options.unreachableCode, `The platform at ${originOf(url)} ${failureReason(error, options.timeoutMs)}`, { cause: error });
  }
}

/**
 * Why a call got no answer, in words: a request refused before it left (a bad header, a
 * destination the host does not allow) must not read as "could not be reached".
 */
function failureReason(error: unknown, timeoutMs: number): string {
  const { name, code, message } = (error ?? {}) as { name?: unknown; code?: unknown; message?: unknown };
  if (name === 'TimeoutError' || code === 'BOT_ERR_EGRESS_TIMEOUT') return `did not answer within ${timeoutMs} ms`;
  const detail = typeof message === 'string' ? `: ${message}` : '';
  if (typeof code !== 'string' || code === 'BOT_ERR_EGRESS_FAILED') return `could not be reached${detail}`;
  return `was not contacted (${code})${detail}`;
}

function parseJson(text: string): unknown {
  try {
    return text ? (JSON.parse(text) as unknown) : undefined;
  } catch {
    return undefined;
  }
}

function originOf(url: string): string {
  return URL.canParse(url) ? new URL(url).origin : '(not a URL)';
}
