import type { Context } from 'koa';
import type { PlainWebhookRequest } from '../channels/plugin-side/protocol.ts';

/**
 * The request as it goes to a channel's sandbox: lower-case headers, single-valued query, and the
 * exact bytes received (signatures are computed over these). The JSON body is not parsed here:
 * the worker parses the bytes before it calls the plugin (parseWebhookBody), off the main thread.
 */
export function toPlainWebhookRequest(ctx: Context, rawBody: Buffer): PlainWebhookRequest {
  return {
    method: ctx.method as 'GET' | 'POST',
    headers: Object.fromEntries(Object.entries(ctx.headers).map(([name, value]) => [name, Array.isArray(value) ? value.join(', ') : value])),
    query: Object.fromEntries(Object.entries(ctx.query).map(([name, value]) => [name, Array.isArray(value) ? value[0] : value])),
    params: { ...(ctx.params as Record<string, string>) },
    rawBody: new Uint8Array(rawBody.buffer, rawBody.byteOffset, rawBody.byteLength),
  };
}
