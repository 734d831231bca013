import { AppError } from '../errors/app-error.ts';
import { causes } from '../errors/cause-chain.ts';
import { errorCode } from '../errors/describe-error.ts';
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

/**
 * The first egress error in `error`'s cause chain: undici wraps what a connection's `lookup`
 * threw in `TypeError: fetch failed`, and our refusal is inside.
 * @example const refusal = findEgressError(error) ?? egressError('BOT_ERR_EGRESS_FAILED', '…', error);
 */
export function findEgressError(error: unknown): AppError | undefined {
  for (const link of causes(error)) {
    if (errorCode(link)?.startsWith('BOT_ERR_EGRESS_')) return link as AppError;
  }
  return undefined;
}
