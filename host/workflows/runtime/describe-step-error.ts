import { isAppError } from '../../errors/app-error.ts';
import { describeError } from '../../errors/describe-error.ts';
import { retryAfterOf } from '../../errors/retry-after-of.ts';

/** A failed step's error as stored and shown: a stable code and a message, never a stack. */
export interface StepError {
  code: string;
  message: string;
  details?: unknown;
  /** The wait the platform asked for before trying again (a Retry-After), when it said one. */
  retryAfterMs?: number;
}

/**
 * The error of a failed step or run. Codes come from our errors and from plugin errors (kept
 * across the worker boundary); anything else is `BOT_ERR_WORKFLOW_STEP_FAILED`.
 */
export function describeStepError(error: unknown): StepError {
  const { code, message } = describeError(error, 'BOT_ERR_WORKFLOW_STEP_FAILED');
  const cause = (error as { cause?: { code?: unknown; message?: unknown } } | null)?.cause;
  const details = isAppError(error) ? error.details : typeof cause?.code === 'string' ? { cause: { code: cause.code, message: String(cause.message ?? '') } } : undefined;
  const retryAfterMs = retryAfterOf(error);
  return {
    code,
    message,
    ...(details === undefined ? {} : { details }),
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
  };
}
