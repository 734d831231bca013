import {
  APICallError,
  JSONParseError,
  NoObjectGeneratedError,
  NoOutputGeneratedError,
  RetryError,
  TypeValidationError,
} from 'ai';
import { AppError, isAppError } from '../../errors/app-error.ts';

/** Which call failed, for the error's details. */
export interface AiCallContext {
  taskName: string;
  provider: string;
  modelId: string;
}

/**
 * Maps what `generateText` threw to a coded error. Provider answers become
 * `BOT_ERR_AI_REQUEST_FAILED` with the HTTP status; the message and details hold only the status
 * and the model's names (never a header, so never the API key), the provider's error stays in
 * `cause` for the logs. The run's own cancellation is passed on unchanged: it is the runner's.
 */
export function toAiError(error: unknown, context: AiCallContext, runSignal: AbortSignal): unknown {
  if (runSignal.aborted || isAppError(error)) return error;
  const failure = RetryError.isInstance(error) ? error.lastError : error;
  const details = { task: context.taskName, provider: context.provider, model: context.modelId };
  if (isTimeout(failure)) {
    return new AppError('BOT_ERR_AI_TIMEOUT', `Task "${context.taskName}": the model did not answer in time`, details, { cause: error });
  }
  if (APICallError.isInstance(failure)) {
    const status = failure.statusCode;
    const what = status === undefined ? 'could not be reached' : `answered HTTP ${status}`;
    return new AppError('BOT_ERR_AI_REQUEST_FAILED', `Task "${context.taskName}": the model provider ${what}`, { ...details, status }, { cause: error });
  }
  if (isOutputError(failure)) {
    return new AppError('BOT_ERR_AI_OUTPUT_INVALID', `Task "${context.taskName}": the model's answer does not match the requested schema`, details, { cause: error });
  }
  return error;
}

/** The call's own time limit (a `TimeoutError`), as opposed to the run being cancelled. */
function isTimeout(error: unknown): boolean {
  return error instanceof Error || error instanceof DOMException ? error.name === 'TimeoutError' : false;
}

function isOutputError(error: unknown): boolean {
  return (
    NoObjectGeneratedError.isInstance(error) ||
    NoOutputGeneratedError.isInstance(error) ||
    TypeValidationError.isInstance(error) ||
    JSONParseError.isInstance(error)
  );
}
