import type { WebhookRequest } from '@bot-ai/api';
import type { Context } from 'koa';

/**
 * The request as a channel sees it: lower-case headers, single-valued query, the JSON body when
 * it parses, and the exact bytes received (signatures are computed over these).
 */
export function toWebhookRequest(ctx: Context, rawBody: Buffer): WebhookRequest {
  return {
    method: ctx.method as 'GET' | 'POST',
    headers: Object.fromEntries(Object.entries(ctx.headers).map(([name, value]) => [name, Array.isArray(value) ? value.join(', ') : value])),
    query: Object.fromEntries(Object.entries(ctx.query).map(([name, value]) => [name, Array.isArray(value) ? value[0] : value])),
    params: { ...(ctx.params as Record<string, string>) },
    body: parseJson(rawBody),
    rawBody: new Uint8Array(rawBody.buffer, rawBody.byteOffset, rawBody.byteLength),
  };
}

function parseJson(raw: Buffer): unknown {
  if (raw.length === 0) return undefined;
  try {
    return JSON.parse(raw.toString('utf8')) as unknown;
  } catch {
    return undefined; // the channel decides what a non-JSON body means
  }
}
