import { createHash, timingSafeEqual } from 'node:crypto';
import type { Middleware } from 'koa';
import { AppError } from '../errors/app-error.ts';
import type { AppState } from '../http/app-state.ts';
import type { RawRouteDefinition } from '../http/route-definition.ts';
import type { HostMetrics } from './host-metrics.ts';

/**
 * `GET /metrics`: Prometheus text. With a token set (BOT_METRICS_TOKEN), only a scraper sending
 * it as a Bearer token is answered; the comparison takes the same time whatever it holds.
 */
export function metricsRoutes(deps: { metrics: HostMetrics; token: string | undefined }): RawRouteDefinition[] {
  return [{
    method: 'GET', path: '/metrics', operationId: 'metrics', tag: 'health', permission: null,
    summary: 'Prometheus metrics; with BOT_METRICS_TOKEN set, only for `Authorization: Bearer <that token>`',
    responses: { 200: { description: 'Prometheus text exposition', type: 'text/plain' }, 401: { description: 'BOT_METRICS_TOKEN is set and the request does not send it' } },
    async answer(ctx) {
      if (deps.token !== undefined) checkBearer(ctx.get('authorization'), deps.token);
      const { contentType, body } = await deps.metrics.exposition();
      ctx.set('Content-Type', contentType);
      ctx.set('Cache-Control', 'no-store');
      ctx.body = body;
    },
  }];
}

function checkBearer(authorization: string, token: string): void {
  const sent = /^Bearer\s+(\S+)\s*$/i.exec(authorization)?.[1];
  if (sent === undefined) throw new AppError('BOT_ERR_AUTH_TOKEN_MISSING', 'Send Authorization: Bearer <BOT_METRICS_TOKEN>');
  // Hashes first: timingSafeEqual needs equal lengths, and the length must not leak either.
  const digest = (value: string) => createHash('sha256').update(value).digest();
  if (!timingSafeEqual(digest(sent), digest(token))) throw new AppError('BOT_ERR_AUTH_TOKEN_INVALID', 'The metrics token is not valid');
}

/**
 * Counts and times every answered request by its route pattern (`/api/webhook/:sourceRef`, never
 * the ref itself, so labels stay few); anything no route matched is `other`.
 */
export function recordHttpMetrics(metrics: HostMetrics): Middleware<AppState> {
  return async (ctx, next) => {
    const stopTimer = metrics.httpDuration.startTimer();
    try {
      await next();
    } finally {
      const route = (ctx as { _matchedRoute?: string })._matchedRoute ?? 'other';
      stopTimer({ method: ctx.method, route });
      metrics.httpRequests.inc({ method: ctx.method, route, status: String(ctx.status) });
    }
  };
}
