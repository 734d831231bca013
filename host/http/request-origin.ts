import type { Context } from 'koa';

/**
 * The origin the request reached; X-Forwarded-* count only with BOT_HTTP_TRUST_PROXY. The base
 * of the links the host hands out when BOT_PUBLIC_URL is not set.
 * @example requestOrigin(ctx) // 'http://localhost:3000'
 */
export function requestOrigin(ctx: Context): string {
  return `${ctx.protocol}://${ctx.host}`;
}
