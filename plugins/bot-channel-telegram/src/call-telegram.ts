import { callPlatform, ChannelError, z } from '@bot-ai/api';

/**
 * How long one Bot API call may take. Below the host's limits: its egress ends a request at half
 * the sandbox's per-call limit (5 s by default) anyway, and a send may wait for its chat's pacing
 * slot first.
 * @example channel.callTimeoutMs = TELEGRAM_CALL_TIMEOUT_MS;
 */
export const TELEGRAM_CALL_TIMEOUT_MS = 4_000;

/**
 * The code of the `ChannelError` thrown when the Bot API gives no answer (timeout, unreachable, refused by the host).
 * @example if (error.code === TELEGRAM_UNREACHABLE_CODE) retryLater();
 */
export const TELEGRAM_UNREACHABLE_CODE = 'TELEGRAM_ERR_UNREACHABLE';

/**
 * Where and how to call the Bot API for one source.
 * @example const api: TelegramApi = { apiBaseUrl: 'https://api.telegram.org', botToken: '123:abc', timeoutMs: 4_000 };
 */
export interface TelegramApi {
  apiBaseUrl: string;
  botToken: string;
  timeoutMs: number;
}

/** A Bot API answer: `{ ok: true, result }`, or `{ ok: false, error_code, description, parameters? }`. */
const answerSchema = z.looseObject({
  ok: z.boolean(),
  result: z.unknown().optional(),
  description: z.string().optional(),
  parameters: z.looseObject({ retry_after: z.number().nonnegative().optional() }).optional(),
});

/**
 * The wait, in ms, that a Bot API error answer asks for: `parameters.retry_after` is in seconds
 * (Telegram puts it in the body, not in a `Retry-After` header). Undefined when absent.
 * @example telegramRetryAfterMs({ ok: false, error_code: 429, description: 'Too Many Requests: retry after 7', parameters: { retry_after: 7 } }) // 7000
 */
export function telegramRetryAfterMs(body: unknown): number | undefined {
  const seconds = answerSchema.safeParse(body).data?.parameters?.retry_after;
  return seconds === undefined ? undefined : seconds * 1000;
}

/**
 * The URL of a Bot API method, `{api_base_url}/bot<token>/<method>`. It holds the bot token:
 * never log it or put it in an event.
 * @example telegramMethodUrl('https://api.telegram.org', '123:abc', 'sendMessage') // 'https://api.telegram.org/bot123:abc/sendMessage'
 */
export function telegramMethodUrl(apiBaseUrl: string, botToken: string, method: string): string {
  return `${trimSlashes(apiBaseUrl)}/bot${botToken}/${method}`;
}

/**
 * The download URL of a file, `{api_base_url}/file/bot<token>/<file_path>`. It holds the bot
 * token: hand it to the host for one download only, never store it.
 * @example telegramFileUrl('https://api.telegram.org', '123:abc', 'photos/file_0.jpg') // 'https://api.telegram.org/file/bot123:abc/photos/file_0.jpg'
 */
export function telegramFileUrl(apiBaseUrl: string, botToken: string, filePath: string): string {
  return `${trimSlashes(apiBaseUrl)}/file/bot${botToken}/${filePath.replace(/^\/+/, '')}`;
}

/**
 * Calls one Bot API method with JSON parameters through `callPlatform` (the SDK's `fetch`, which
 * the host performs) and returns its `result`.
 * - No bot token: `ChannelError('TELEGRAM_ERR_NO_BOT_TOKEN')`, before any request.
 * - No answer in time, unreachable, refused by the host: `ChannelError('TELEGRAM_ERR_UNREACHABLE')`
 *   (its message names the origin only: the path holds the token).
 * - A non-2xx answer: `PlatformResponseError` with the status, Telegram's description and, for a
 *   429 (or a 5xx that says so), `retryAfterMs` from `parameters.retry_after`.
 * - A 2xx answer that is not `{ ok: true }`: `ChannelError('TELEGRAM_ERR_BAD_ANSWER')`.
 * @example const result = await callTelegram(api, 'sendMessage', { chat_id: 42, text: 'Hi' }); // { message_id: 7, … }
 */
export async function callTelegram(api: TelegramApi, method: string, params: Record<string, unknown>): Promise<unknown> {
  if (!api.botToken) throw new ChannelError('TELEGRAM_ERR_NO_BOT_TOKEN', `Cannot call ${method}: the source has no bot token (ask @BotFather for one)`);
  const body = await callPlatform(
    telegramMethodUrl(api.apiBaseUrl, api.botToken, method),
    { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(params) },
    { timeoutMs: api.timeoutMs, unreachableCode: TELEGRAM_UNREACHABLE_CODE, retryAfterMs: (_response, answer) => telegramRetryAfterMs(answer) },
  );
  const answer = answerSchema.safeParse(body);
  if (!answer.success || !answer.data.ok) {
    const detail = answer.data?.description ? `: ${answer.data.description}` : '';
    throw new ChannelError('TELEGRAM_ERR_BAD_ANSWER', `Telegram answered ${method} without { ok: true }${detail}`);
  }
  return answer.data.result;
}

function trimSlashes(url: string): string {
  return url.replace(/\/+$/, '');
}
