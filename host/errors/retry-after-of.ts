/**
 * The wait a platform asked for (Retry-After, in ms), carried by a PlatformResponseError on the
 * error itself or, once it crossed a sandbox or a runner, on one of its causes.
 */
export function retryAfterOf(error: unknown): number | undefined {
  for (let current = error, depth = 0; current && depth < 4; current = (current as { cause?: unknown }).cause, depth += 1) {
    const wait = (current as { retryAfterMs?: unknown }).retryAfterMs;
    if (typeof wait === 'number' && Number.isFinite(wait) && wait >= 0) return wait;
  }
  return undefined;
}
