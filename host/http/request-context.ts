import { randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';
import type { Logger } from 'pino';
import type { AppState } from './app-state.ts';

const SAFE_REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;

/**
 * Gives each request an id (the caller's `X-Request-Id` when it is sane, else a new one), echoes
 * it, attaches a child logger, and logs one line per finished request: at debug (health probes
 * and metrics scrapes would otherwise bury everything an operator reads), at warn for a 5xx.
 * The child logger is made when first read: most requests log nothing at the usual levels, and
 * making one (its bindings are serialised, through the redaction) is a good part of the
 * middleware's cost.
 */
export function requestContext(logger: Logger): Middleware<AppState> {
  return async (ctx, next) => {
    const incoming = ctx.get('x-request-id');
    const requestId = SAFE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
    const state = new RequestState(logger, requestId);
    ctx.state = Object.assign(state, ctx.state);
    ctx.set('X-Request-Id', requestId);
    const started = performance.now();
    try {
      await next();
    } finally {
      const durationMs = Math.round((performance.now() - started) * 10) / 10;
      const level = ctx.status >= 500 ? 'warn' : 'debug';
      if (state.loggerInUse.isLevelEnabled(level)) {
        ctx.state.log[level]({ method: ctx.method, path: ctx.path, status: ctx.status, durationMs }, 'request');
      }
    }
  };
}

/**
 * `ctx.state` with its `log` made on first read. A class, not an accessor defined on each
 * request's object: V8 shares one shape across instances of a class, but gives every object whose
 * accessors are new closures a shape of its own, which costs more than the child logger saved.
 */
class RequestState implements AppState {
  readonly #parent: Logger;
  #log: Logger | undefined;

  constructor(
    parent: Logger,
    public requestId: string,
  ) {
    this.#parent = parent;
  }

  get log(): Logger {
    return (this.#log ??= this.#parent.child({ requestId: this.requestId }));
  }

  set log(replacement: Logger) {
    this.#log = replacement;
  }

  /** The logger `log` is or would be: a child has its parent's level unless given another. */
  get loggerInUse(): Logger {
    return this.#log ?? this.#parent;
  }
}
