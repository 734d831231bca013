/**
 * Worker side: the webhook tasks. `receiveWebhook` is the hot path, verify and decode in one
 * task, so a webhook costs one round trip to the worker.
 */
import { WebhookResponse, type ChannelSource, type HttpChannelHandler, type PlainInboundEvent, type PlainWebhookResponse, type WebhookRequest } from '@bot-ai/api';
import { callPlugin, pluginThrew } from './call-plugin.ts';
import { parseWebhookBody } from './parse-webhook-body.ts';
import type { PlainWebhookRequest, ReceiveWebhookResult } from './protocol.ts';
import { errorCode, SandboxError, serializeError } from './sandbox-error.ts';

const PAYLOAD_REJECTED = 'BOT_ERR_CHANNEL_PAYLOAD_REJECTED';

/** Answers the platform's GET handshake with what the handler wrote (default 200 `ok`). */
export async function verifyWebhookTask(handler: HttpChannelHandler, request: PlainWebhookRequest, source: ChannelSource): Promise<PlainWebhookResponse> {
  const res = new WebhookResponse();
  await callPlugin('verifyWebhook', () => handler.verifyWebhook(toWebhookRequest(request), res, source));
  return res.toPlain();
}

/**
 * verifySignature (any throw → 401) then decode (a payload rejection or a ZodError → 400; any
 * other throw is a plugin failure), then the events bound to the source, as plain data.
 */
export async function receiveWebhookTask(handler: HttpChannelHandler, request: PlainWebhookRequest, source: ChannelSource): Promise<ReceiveWebhookResult> {
  const req = toWebhookRequest(request);
  const res = new WebhookResponse();
  try {
    await handler.verifySignature(req, res, source);
  } catch (error) {
    return { outcome: 'rejected', status: 401, reason: serializeError(error) };
  }
  let decoded: unknown;
  try {
    decoded = await handler.decode(req, source);
  } catch (error) {
    if (isPayloadRejection(error)) return { outcome: 'invalid', status: 400, reason: serializeError(error) };
    throw pluginThrew('decode', error);
  }
  return { outcome: 'accepted', events: await toPlainEvents(decoded, source), response: res.toPlain() };
}

function isPayloadRejection(error: unknown): boolean {
  return errorCode(error) === PAYLOAD_REJECTED || (error as { name?: unknown } | null)?.name === 'ZodError';
}

/**
 * The request as the plugin sees it: a Buffer view over the transferred bytes (no copy), so
 * plugins can use Buffer methods, and the body parsed here, in the worker.
 */
function toWebhookRequest(request: PlainWebhookRequest): WebhookRequest {
  const { rawBody } = request;
  return { ...request, body: parseWebhookBody(rawBody, request.headers['content-type']), rawBody: Buffer.from(rawBody.buffer, rawBody.byteOffset, rawBody.byteLength) };
}

interface EventLike {
  bindSource(source: ChannelSource): unknown;
  toPlain(): PlainInboundEvent;
}

async function toPlainEvents(decoded: unknown, source: ChannelSource): Promise<PlainInboundEvent[]> {
  if (!Array.isArray(decoded)) {
    throw new SandboxError('BOT_ERR_PLUGIN_INVALID_RESULT', `decode() must return an array of ChannelInboundEvent, got ${typeof decoded}`);
  }
  return Promise.all(
    decoded.map((event: unknown, index) => {
      if (!isEventLike(event)) {
        throw new SandboxError('BOT_ERR_PLUGIN_INVALID_RESULT', `decode() returned an item that is not a ChannelInboundEvent at index ${index}`);
      }
      return callPlugin('toPlain', () => (event.bindSource(source), event.toPlain()));
    }),
  );
}

function isEventLike(value: unknown): value is EventLike {
  const candidate = value as Partial<EventLike> | null;
  return typeof candidate?.toPlain === 'function' && typeof candidate.bindSource === 'function';
}
