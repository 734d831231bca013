/** What the checks share: how they fail, and how they read what a channel threw. */

/** Raised inside a check to fail it with a reason. */
export class CheckFailure extends Error {}

/** Fails the check unless the answer had the expected status. */
export function expectStatus(got: number, expected: number): void {
  if (got !== expected) fail(`answered ${got}, expected ${expected}`);
}

/** Fails the check with `message` as its line's reason. */
export function fail(message: string): never {
  throw new CheckFailure(message);
}

/**
 * The channel's own code: in a host's runner, the plugin's error arrives as the cause of the
 * host's `BOT_ERR_PLUGIN_THREW`, so the chain is searched for the first code that is not it.
 */
export function codeOf(error: unknown): string {
  for (let current = error, depth = 0; current && depth < 4; current = (current as { cause?: unknown }).cause, depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && code !== 'BOT_ERR_PLUGIN_THREW') return code;
  }
  return describeError(error);
}

/** A field of the error or, once it crossed a runner, of one of its causes. */
export function inCauseChain(error: unknown, key: string): unknown {
  for (let current = error, depth = 0; current && depth < 4; current = (current as { cause?: unknown }).cause, depth += 1) {
    const value = (current as Record<string, unknown>)[key];
    if (value !== undefined) return value;
  }
  return undefined;
}

/** `CODE: message` of an error, or its text. */
export function describeError(error: unknown): string {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  const text = typeof message === 'string' ? message : String(error);
  return typeof code === 'string' ? `${code}: ${text}` : text;
}

/** Equal as JSON whatever the order of object keys. */
export function deepEqual(a: unknown, b: unknown): boolean {
  return JSON.stringify(sortKeys(a)) === JSON.stringify(sortKeys(b));
}

export function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).sort(([a], [b]) => a.localeCompare(b)).map(([key, inner]) => [key, sortKeys(inner)]));
  }
  return value;
}
