import { callPlatform } from '@bot-ai/api';
import type { WhatsAppSettings } from './whatsapp-settings.schema.ts';
import { whatsAppRetryAfterMs } from './whatsapp-retry-delay.ts';

/** How long one API call may take before it is abandoned (below the host's per-call limit). */
export const WHATSAPP_CALL_TIMEOUT_MS = 10_000;

/** The code of the ChannelError thrown when the Graph API gives no answer. */
export const WHATSAPP_UNREACHABLE_CODE = 'WHATSAPP_ERR_UNREACHABLE';

/** What every Cloud API call needs: where the API is and the token to call it with. */
export type WhatsAppApi = Pick<WhatsAppSettings, 'api_base_url' | 'api_version' | 'access_token'>;

/**
 * The URL of a Graph API path: `{api_base_url}/{api_version}/{segments…}`, each segment
 * URL-encoded (a trailing slash of the base is ignored).
 * @example whatsAppApiUrl(api, '106540352242922', 'messages') // 'https://graph.facebook.com/v21.0/106540352242922/messages'
 */
export function whatsAppApiUrl(api: Pick<WhatsAppApi, 'api_base_url' | 'api_version'>, ...segments: string[]): string {
  const path = [api.api_version, ...segments].map(encodeURIComponent).join('/');
  return `${api.api_base_url.replace(/\/+$/, '')}/${path}`;
}

/**
 * One call to the Cloud API through `callPlatform` (the host performs it): the bearer token, a
 * JSON body when given, the time limit, and the retry delay read from a rate-limit answer
 * (`whatsAppRetryAfterMs`). Answers the parsed JSON body; throws as `callPlatform` does.
 * @example const answer = await callWhatsAppApi(api, 'POST', [phoneNumberId, 'messages'], body, 10_000);
 */
export function callWhatsAppApi(api: WhatsAppApi, method: 'GET' | 'POST', segments: string[], body: unknown, timeoutMs: number): Promise<unknown> {
  const headers: Record<string, string> = { authorization: `Bearer ${api.access_token}` };
  if (body !== undefined) headers['content-type'] = 'application/json';
  return callPlatform(
    whatsAppApiUrl(api, ...segments),
    { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) },
    { timeoutMs, unreachableCode: WHATSAPP_UNREACHABLE_CODE, retryAfterMs: whatsAppRetryAfterMs },
  );
}
