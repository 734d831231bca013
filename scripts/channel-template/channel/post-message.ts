// `callPlatform` goes through the SDK's fetch, not the global one: plugins have no network of
// their own, the host performs the request (to the source's `api_url` origin, or a host declared
// in package.json `bot.egress`).
import { callPlatform, ChannelError, z } from '@bot-ai/api';

/** How long one send may take; keep it below the host's `BOT_SANDBOX_CALL_TIMEOUT_MS`. */
export const SEND_TIMEOUT_MS = 4_000;

const sendResponseSchema = z.looseObject({ id: z.union([z.string().min(1), z.number()]).transform(String) });

/** One text message to send. */
export interface SendRequest {
  apiUrl: string;
  apiKey: string;
  recipientId: string;
  text: string;
  /** Stable per outgoing message: lets the platform drop a repeated send. */
  idempotencyKey: string;
  timeoutMs: number;
}

/**
 * Posts `{ recipient: { id }, message: { text } }` to `{apiUrl}/messages` and returns the id the
 * platform answers with. A non-2xx answer throws `PlatformResponseError` with the status and the
 * platform's `Retry-After` (the host waits that long before it sends again); no answer throws
 * `__NAME___ERR_PLATFORM_UNREACHABLE`. Change: the URL, headers and body to your platform's send
 * API, and pass `retryAfterMs` to `callPlatform` if your platform puts its delay in the body.
 * @example const mid = await postMessage({ apiUrl, apiKey, recipientId: 'user-1', text: 'Hi', idempotencyKey, timeoutMs: 4_000 });
 */
export async function postMessage(request: SendRequest): Promise<string> {
  const body = await callPlatform(
    `${request.apiUrl.replace(/\/+$/, '')}/messages`,
    {
      method: 'POST',
      headers: { authorization: `Bearer ${request.apiKey}`, 'content-type': 'application/json', 'idempotency-key': request.idempotencyKey },
      body: JSON.stringify({ recipient: { id: request.recipientId }, message: { text: request.text } }),
    },
    { timeoutMs: request.timeoutMs, unreachableCode: '__NAME___ERR_PLATFORM_UNREACHABLE' },
  );
  const parsed = sendResponseSchema.safeParse(body);
  if (!parsed.success) throw new ChannelError('__NAME___ERR_NO_MESSAGE_ID', 'The platform answered without a message id');
  return parsed.data.id;
}
