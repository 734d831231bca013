import { ChannelError, fetch, PlatformResponseError, retryAfterMs, z } from '@bot-ai/api';
import type { SampleOutgoingMessage } from './sample-encoder.ts';

/** How long one send may take before it is abandoned (below the host's per-call time limit). */
export const SAMPLE_SEND_TIMEOUT_MS = 10_000;

/** How much of an error response body goes into the error message. */
const MAX_DETAIL_CHARS = 200;

const sendResponseSchema = z.looseObject({ id: z.union([z.string().min(1), z.number()]).transform(String) });

/** One send request to the sample platform. */
export interface SampleSendRequest {
  apiUrl: string;
  apiKey: string;
  recipientId: string;
  message: SampleOutgoingMessage;
  /** Sent as `Idempotency-Key`, so the platform can drop a repeated send. */
  idempotencyKey: string;
  timeoutMs: number;
}

/**
 * Posts one message to `{apiUrl}/messages` through the SDK's `fetch` (the host performs it: the
 * source's `api_url` is this channel's one allowed destination) and returns the platform's
 * message id. Throws `PlatformResponseError` naming the status (and any `Retry-After`) on a
 * non-2xx answer, and a `ChannelError` when the platform cannot be reached in time (or the host
 * refuses the destination: the cause keeps its `BOT_ERR_EGRESS_*` code) or answers without an id.
 * @example
 * const mid = await postSampleMessage({
 *   apiUrl, apiKey, recipientId: 'user-1', message: { text: 'Hi' }, idempotencyKey, timeoutMs: 10_000,
 * });
 */
export async function postSampleMessage(request: SampleSendRequest): Promise<string> {
  const response = await fetchPlatform(request);
  if (!response.ok) {
    // A 429 or 503 may say when to come back: the host then waits that long before sending again.
    throw new PlatformResponseError(response.status, await readDetail(response), { retryAfterMs: retryAfterMs(response.headers.get('retry-after')) });
  }
  const parsed = sendResponseSchema.safeParse(await response.json().catch(() => undefined));
  if (!parsed.success) {
    throw new ChannelError('SAMPLE_ERR_NO_MESSAGE_ID', `The platform answered HTTP ${response.status} without a message id`);
  }
  return parsed.data.id;
}

async function fetchPlatform(request: SampleSendRequest): Promise<Response> {
  const url = `${request.apiUrl.replace(/\/+$/, '')}/messages`;
  try {
    return await fetch(url, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${request.apiKey}`,
        'content-type': 'application/json',
        'idempotency-key': request.idempotencyKey,
      },
      body: JSON.stringify({ recipient: { id: request.recipientId }, message: request.message }),
      signal: AbortSignal.timeout(request.timeoutMs),
    });
  } catch (error) {
    throw new ChannelError('SAMPLE_ERR_PLATFORM_UNREACHABLE', `The platform at ${url} ${failureReason(error, request.timeoutMs)}`, { cause: error });
  }
}

/**
 * Why the send did not get an answer, in words: a request refused before it left (a bad header,
 * a destination the host does not allow) must not read as "could not be reached", and the
 * cause's own message goes along, so the recorded error names the real reason.
 */
function failureReason(error: unknown, timeoutMs: number): string {
  const { name, code, message } = error as { name?: unknown; code?: unknown; message?: unknown };
  if (name === 'TimeoutError' || code === 'BOT_ERR_EGRESS_TIMEOUT') return `did not answer within ${timeoutMs} ms`;
  const detail = typeof message === 'string' ? `: ${message}` : '';
  if (typeof code !== 'string' || code === 'BOT_ERR_EGRESS_FAILED') return `could not be reached${detail}`;
  return `was not contacted (${code})${detail}`;
}

async function readDetail(response: Response): Promise<string> {
  const text = await response.text().catch(() => '');
  return text.trim().slice(0, MAX_DETAIL_CHARS);
}
