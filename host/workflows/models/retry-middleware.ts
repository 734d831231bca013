import { setTimeout as sleep } from 'node:timers/promises';
import { APICallError, type LanguageModelMiddleware } from 'ai';

const FIRST_DELAY_MS = 1_000;
const LONGEST_HONOURED_RETRY_AFTER_MS = 60_000;

/**
 * Retries a model call the provider failed with a retryable status (408, 409, 429, 5xx) or
 * could not be reached for, up to `maxRetries` times, waiting 1 s, 2 s, 4 s, … or what its
 * `retry-after` header asks (up to a minute). Retries live here, with the model, rather than in
 * each `generateText` call, so the configured count applies wherever the model is used; the
 * actions call `generateText` with `maxRetries: 0` so the two never multiply.
 */
export function retryMiddleware(maxRetries: number): LanguageModelMiddleware {
  return {
    wrapGenerate: async ({ doGenerate, params }) => {
      for (let attempt = 0; ; attempt++) {
        try {
          return await doGenerate();
        } catch (error) {
          if (attempt >= maxRetries || !isRetryable(error)) throw error;
          await sleep(delayBefore(error, attempt), undefined, { signal: params.abortSignal });
        }
      }
    },
  };
}

function isRetryable(error: unknown): error is APICallError {
  return APICallError.isInstance(error) && error.isRetryable;
}

function delayBefore(error: APICallError, attempt: number): number {
  const backoff = FIRST_DELAY_MS * 2 ** attempt;
  const headers = error.responseHeaders ?? {};
  const asked = Number(headers['retry-after-ms'] ?? Number(headers['retry-after']) * 1_000);
  return Number.isFinite(asked) && asked >= 0 && asked <= LONGEST_HONOURED_RETRY_AFTER_MS ? asked : backoff;
}
