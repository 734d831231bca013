import { randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';
import type { Logger } from 'pino';
import type { AppState } from './app-state.ts';

const SAFE_REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;

/**
 * Gives each request an id (the caller's `X-Request-Id` when it is sane, else a new one), echoes
 * it, attaches a child logger, and logs one line per finished request: at debug (health probes
 * and metrics scrapes would otherwise bury everything an operator reads), at warn for a 5xx.
 */
export function requestContext(logger: Logger): Middleware<AppState> {
  return async (ctx, next) => {
    const incoming = ctx.get('x-request-id');
    const requestId = SAFE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
    ctx.state.requestId = requestId;
    ctx.state.log = logger.child({ requestId });
    ctx.set('X-Request-Id', requestId);
    const started = performance.now();
    try {
      await next();
    } finally {
      const durationMs = Math.round((performance.now() - started) * 10) / 10;
      const fields = { method: ctx.method, path: ctx.path, status: ctx.status, durationMs };
      if (ctx.status >= 500) ctx.state.log.warn(fields, 'request');
      else ctx.state.log.debug(fields, 'request');
    }
  };
}
