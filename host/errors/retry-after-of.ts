import { causes } from './cause-chain.ts';

/**
 * The wait a platform asked for (Retry-After, in ms), carried by a PlatformResponseError on the
 * error itself or, once it crossed a sandbox or a runner, on one of its causes.
 */
export function retryAfterOf(error: unknown): number | undefined {
  for (const link of causes(error, 4)) {
    const wait = (link as { retryAfterMs?: unknown }).retryAfterMs;
    if (typeof wait === 'number' && Number.isFinite(wait) && wait >= 0) return wait;
  }
  return undefined;
}
