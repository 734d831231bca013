import type { Middleware } from 'koa';
import { AppError, isAppError } from '../errors/app-error.ts';
import { ERROR_CODES } from '../errors/error-codes.ts';
import { codesWhere } from '../errors/codes-where.ts';
import { isConnectionError } from '../errors/postgres-errors.ts';
import type { AppState } from './app-state.ts';

/** The one error body shape, everywhere: `{ error: { code, message, details } }`. */
export interface ErrorBody {
  error: { code: string; message: string; details?: unknown };
}

/** 5xx codes that report a state to wait out (starting, a channel disabled), not a failure. */
const PASSING_STATES = codesWhere('passingState');

/**
 * Turns every failure into the error body. Our own errors show their message and details when
 * their code is exposed; anything else becomes BOT_ERR_INTERNAL with a generic message, and the
 * real error, with its cause chain, goes to the log only: at error for a failure of the host, as
 * one warning line for a passing state (a readiness probe while channels load, a webhook to a
 * disabled channel), at debug for the caller's own mistakes (4xx).
 */
export function errorMiddleware(): Middleware<AppState> {
  return async (ctx, next) => {
    try {
      await next();
      if (ctx.body === undefined || ctx.body === null) throwForEmptyStatus(ctx.status, ctx.method, ctx.path);
    } catch (thrown) {
      const error = toAppError(thrown);
      const log = ctx.state.log;
      if (error.status < 500) log?.debug({ err: thrown }, error.message);
      else if (PASSING_STATES.has(error.code)) log?.warn({ code: error.code }, error.message);
      else log?.error({ err: thrown }, error.message);
      ctx.status = error.status;
      ctx.body = errorBody(error);
    }
  };
}

/** Statuses the router sets without a body (no route, wrong method) get the error body too. */
function throwForEmptyStatus(status: number, method: string, path: string): void {
  if (status === 404) throw new AppError('BOT_ERR_HTTP_NOT_FOUND', `No route for ${method} ${path}`);
  if (status === 405) throw new AppError('BOT_ERR_HTTP_METHOD_NOT_ALLOWED', `${method} is not allowed on ${path}`);
  if (status === 501) throw new AppError('BOT_ERR_HTTP_METHOD_NOT_IMPLEMENTED', `${method} is not implemented`);
}

export function errorBody(error: AppError): ErrorBody {
  if (!error.expose) {
    return { error: { code: error.code, message: ERROR_CODES[error.code].description } };
  }
  return {
    error: { code: error.code, message: error.message, ...(error.details === undefined ? {} : { details: error.details }) },
  };
}

function toAppError(thrown: unknown): AppError {
  if (isAppError(thrown)) return thrown;
  if (isConnectionError(thrown)) {
    return new AppError('BOT_ERR_DB_UNAVAILABLE', 'The database is unavailable; retry later', undefined, { cause: thrown });
  }
  return new AppError('BOT_ERR_INTERNAL', 'Internal error', undefined, { cause: thrown });
}
