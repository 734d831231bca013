import type { LanguageModelMiddleware } from 'ai';

/**
 * A time limit on each call to the model (each step of a tool loop and each retry gets its own),
 * added to whatever signal the caller passes. Past it the call rejects with a `TimeoutError`,
 * which the AI actions report as `BOT_ERR_AI_TIMEOUT`.
 */
export function callTimeoutMiddleware(timeoutMs: number): LanguageModelMiddleware {
  return {
    transformParams: async ({ params }) => ({
      ...params,
      abortSignal: params.abortSignal
        ? AbortSignal.any([params.abortSignal, AbortSignal.timeout(timeoutMs)])
        : AbortSignal.timeout(timeoutMs),
    }),
  };
}
