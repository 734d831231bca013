import { callPlatform, ChannelError, z } from '@bot-ai/api';
import type { SampleOutgoingMessage } from './sample-encoder.ts';

/** How long one send may take before it is abandoned (below the host's per-call time limit). */
export const SAMPLE_SEND_TIMEOUT_MS = 10_000;

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
 * Posts one message to `{apiUrl}/messages` through the SDK's `callPlatform` (the host performs
 * it: the source's `api_url` is this channel's one allowed destination) and returns the
 * platform's message id. Throws `PlatformResponseError` naming the status (and any
 * `Retry-After`) on a non-2xx answer, and a `ChannelError` when the platform cannot be reached
 * in time (`SAMPLE_ERR_PLATFORM_UNREACHABLE`; a destination the host refuses keeps its
 * `BOT_ERR_EGRESS_*` code in the cause) or answers without an id.
 * @example
 * const mid = await postSampleMessage({
 *   apiUrl, apiKey, recipientId: 'user-1', message: { text: 'Hi' }, idempotencyKey, timeoutMs: 10_000,
 * });
 */
export async function postSampleMessage(request: SampleSendRequest): Promise<string> {
  const answer = await callPlatform(
    `${request.apiUrl.replace(/\/+$/, '')}/messages`,
    {
      method: 'POST',
      headers: { authorization: `Bearer ${request.apiKey}`, 'content-type': 'application/json', 'idempotency-key': request.idempotencyKey },
      body: JSON.stringify({ recipient: { id: request.recipientId }, message: request.message }),
    },
    { timeoutMs: request.timeoutMs, unreachableCode: 'SAMPLE_ERR_PLATFORM_UNREACHABLE' },
  );
  const parsed = sendResponseSchema.safeParse(answer);
  if (!parsed.success) throw new ChannelError('SAMPLE_ERR_NO_MESSAGE_ID', 'The platform answered without a message id');
  return parsed.data.id;
}
