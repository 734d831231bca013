import { AppError } from '../errors/app-error.ts';
import type { ErrorCode } from '../errors/error-codes.ts';

/** The codes of the egress errors in the host's error table. */
export type EgressErrorCode = Extract<ErrorCode, `BOT_ERR_EGRESS_${string}`>;

/**
 * An egress refusal or failure. Its message names the origin at most, never the full URL: paths
 * and queries carry tokens (`/bot<token>/sendMessage`), and the message reaches plugin and logs.
 * @example throw egressError('BOT_ERR_EGRESS_HOST_NOT_ALLOWED', 'https://elsewhere.example is not allowed');
 */
export function egressError(code: EgressErrorCode, message: string, cause?: unknown): AppError {
  return new AppError(code, message, undefined, cause === undefined ? undefined : { cause });
}

const MAX_DEPTH = 8;

/**
 * The first egress error in `error`'s cause chain: undici wraps what a connection's `lookup`
 * threw in `TypeError: fetch failed`, and our refusal is inside.
 * @example const refusal = findEgressError(error) ?? egressError('BOT_ERR_EGRESS_FAILED', '…', error);
 */
export function findEgressError(error: unknown): AppError | undefined {
  let current = error;
  for (let depth = 0; depth < MAX_DEPTH && current; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && code.startsWith('BOT_ERR_EGRESS_')) return current as AppError;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}
