import type { Logger } from 'pino';
import { describeStepError } from '../workflows/runtime/describe-step-error.ts';

/**
 * One line per failed attempt of an inbound event, at warn, with its code and cause (the stack
 * at debug).
 */
export function logFailedAttempt(logger: Pick<Logger, 'warn' | 'debug'>, inboundEventId: string, error: unknown, attempt: { number: number; maxAttempts: number }): void {
  const { code, message } = describeStepError(error);
  const cause = (error as { cause?: unknown } | null)?.cause;
  const causeText = cause instanceof Error ? `${(cause as { code?: string }).code ?? cause.name}: ${cause.message}` : undefined;
  logger.warn({ inboundEventId, code, error: message, cause: causeText, attempt: attempt.number, maxAttempts: attempt.maxAttempts }, 'inbound event attempt failed; it is retried with backoff');
  logger.debug({ inboundEventId, err: error }, 'inbound event attempt failed (stack)');
}
