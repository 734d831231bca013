import { ERROR_CODES, type ErrorCode } from './error-codes.ts';

const APP_ERROR_BRAND = Symbol.for('bot.app-error');

/**
 * An error with a stable code from the error table. `details` is shown to clients only when the
 * code is exposed; `cause` keeps the underlying error for the logs.
 */
export class AppError extends Error {
  readonly [APP_ERROR_BRAND] = true;
  readonly status: number;
  readonly expose: boolean;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: unknown,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'AppError';
    this.status = ERROR_CODES[code].status;
    this.expose = ERROR_CODES[code].expose;
  }
}

/** Recognises our errors by brand, so it also works across module copies and worker threads. */
export function isAppError(error: unknown): error is AppError {
  return typeof error === 'object' && error !== null && APP_ERROR_BRAND in error;
}
