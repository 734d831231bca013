import { callPlatform, ChannelError } from '@bot-ai/api';
import { messengerRetryAfterMs } from './messenger-retry-after.ts';
import type { MessengerSettings } from './messenger-settings.schema.ts';

/**
 * The code of the ChannelError thrown when the Graph API gave no answer (timeout, unreachable, refused by the host).
 * @example if ((error as ChannelError).code === MESSENGER_UNREACHABLE_CODE) { … }
 */
export const MESSENGER_UNREACHABLE_CODE = 'MESSENGER_ERR_UNREACHABLE';

/**
 * One Graph API call: `POST` with a JSON body, or `GET`; `path` is after the version (`me/messages`).
 * @example const call: MessengerGraphCall = { method: 'GET', path: '6723419087613458', query: { fields: 'first_name' }, timeoutMs: 5_000 };
 */
export interface MessengerGraphCall {
  method: 'GET' | 'POST';
  path: string;
  query?: Record<string, string>;
  body?: unknown;
  timeoutMs: number;
}

/**
 * Calls `{api_base_url}/{api_version}/{path}` with the source's Page access token as a bearer
 * token (never in the URL), through the SDK's `callPlatform`: the parsed JSON answer of a 2xx;
 * `PlatformResponseError` with Meta's retry delay (see `messengerRetryAfterMs`) otherwise;
 * `ChannelError(MESSENGER_ERR_UNREACHABLE)` without an answer; `ChannelError(MESSENGER_ERR_NO_PAGE_TOKEN)`
 * before any call when the source has no token.
 * @example const answer = await callMessengerGraph(settings, { method: 'POST', path: 'me/messages', body, timeoutMs: 10_000 });
 */
export async function callMessengerGraph(settings: MessengerSettings, call: MessengerGraphCall): Promise<unknown> {
  if (!settings.page_access_token) {
    throw new ChannelError('MESSENGER_ERR_NO_PAGE_TOKEN', 'The source has no Page access token: set page_access_token');
  }
  const headers: Record<string, string> = { authorization: `Bearer ${settings.page_access_token}`, accept: 'application/json' };
  if (call.body !== undefined) headers['content-type'] = 'application/json';
  return callPlatform(
    graphUrl(settings, call.path, call.query),
    { method: call.method, headers, ...(call.body === undefined ? {} : { body: JSON.stringify(call.body) }) },
    { timeoutMs: call.timeoutMs, unreachableCode: MESSENGER_UNREACHABLE_CODE, retryAfterMs: messengerRetryAfterMs },
  );
}

/**
 * The URL of a Graph API path for a source, whatever trailing slash the base URL has.
 * @example graphUrl(settings, 'me/messages') // 'https://graph.facebook.com/v21.0/me/messages'
 * @example graphUrl(settings, '6723419087613458', { fields: 'first_name,last_name' }) // '…/v21.0/6723419087613458?fields=first_name,last_name'
 */
export function graphUrl(settings: Pick<MessengerSettings, 'api_base_url' | 'api_version'>, path: string, query?: Record<string, string>): string {
  const url = `${settings.api_base_url.replace(/\/+$/, '')}/${settings.api_version}/${path}`;
  if (!query) return url;
  // Commas stay as they are: Graph's field lists read `fields=first_name,last_name`.
  const pairs = Object.entries(query).map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value).replaceAll('%2C', ',')}`);
  return `${url}?${pairs.join('&')}`;
}
