import { callPlatform, ChannelError, PlatformResponseError, z } from '@bot-ai/api';

/** How long one Web API call may take before it is abandoned (below the host's per-call limit). */
export const SLACK_CALL_TIMEOUT_MS = 10_000;

/**
 * The wait before sending again after an `ok: false, error: 'ratelimited'` answer that came
 * without a `Retry-After` (Slack's real 429 carries one): Slack's per-channel pace, one message
 * a second.
 */
export const SLACK_RATELIMITED_DEFAULT_WAIT_MS = 1_000;

/** Every Web API answer: `ok`, and on failure the error's name. */
const slackAnswerSchema = z.looseObject({ ok: z.boolean(), error: z.string().optional() });

/**
 * Slack refused a Web API call with HTTP 200 and `{ ok: false, error }`. Its `code` is the SDK's
 * platform status code, so the host knows the message was not delivered (it may send it again);
 * `slackError` (and the message) is Slack's name of the error, e.g. `channel_not_found`. A
 * `ratelimited` answer carries a retry delay.
 * @example throw new SlackApiError('chat.postMessage', 'channel_not_found');
 */
export class SlackApiError extends PlatformResponseError {
  constructor(
    readonly method: string,
    readonly slackError: string,
  ) {
    const rateLimited = slackError === 'ratelimited';
    super(rateLimited ? 429 : 200, slackError, { retryAfterMs: rateLimited ? SLACK_RATELIMITED_DEFAULT_WAIT_MS : undefined });
    this.message = `Slack refused ${method}: ${slackError}`;
  }
}

/** One Web API call. */
export interface SlackApiCall {
  apiBaseUrl: string;
  botToken: string;
  /** The method, e.g. `chat.postMessage`. */
  method: string;
  /** A JSON body: the call is a POST. Without: a GET with `query`. */
  body?: Record<string, unknown>;
  query?: Record<string, string>;
  timeoutMs: number;
}

/**
 * Calls one Web API method through `callPlatform` (the SDK's `fetch`; timeouts, unreachable
 * platforms and non-2xx answers, with their `Retry-After`, become the SDK's errors) with the
 * bot token as a Bearer token, and answers the JSON of a successful call. Throws
 * `SlackApiError` for `{ ok: false }` and a `ChannelError` for an answer that is not the Web API's.
 * @example const answer = await callSlackApi({ apiBaseUrl, botToken, method: 'users.info', query: { user: 'U061F7AUR' }, timeoutMs: 10_000 });
 */
export async function callSlackApi(call: SlackApiCall): Promise<Record<string, unknown>> {
  const query = call.query ? `?${new URLSearchParams(call.query).toString()}` : '';
  const url = `${call.apiBaseUrl.replace(/\/+$/, '')}/${call.method}${query}`;
  const headers: Record<string, string> = { authorization: `Bearer ${call.botToken}` };
  // Slack warns (missing_charset) about JSON without a charset.
  if (call.body) headers['content-type'] = 'application/json; charset=utf-8';
  const init: RequestInit = call.body ? { method: 'POST', headers, body: JSON.stringify(call.body) } : { method: 'GET', headers };
  const answer = await callPlatform(url, init, { timeoutMs: call.timeoutMs, unreachableCode: 'SLACK_ERR_UNREACHABLE' });
  const parsed = slackAnswerSchema.safeParse(answer);
  if (!parsed.success) throw new ChannelError('SLACK_ERR_BAD_ANSWER', `Slack answered ${call.method} with something that is not a Web API answer`);
  if (!parsed.data.ok) throw new SlackApiError(call.method, parsed.data.error ?? 'unknown_error');
  return parsed.data;
}
