/** How far any walk of a cause chain goes: chains built by the host are a few links long. */
const MAX_CHAIN_LENGTH = 8;

/**
 * The error and each of its causes, outermost first. It stops at the first missing cause, at
 * `maxLength` links, and at a cause seen before, so a cyclic or endless chain cannot hang it.
 * @example for (const link of causes(error)) if (errorCode(link) === 'BOT_ERR_EGRESS_TIMEOUT') return true;
 */
export function* causes(error: unknown, maxLength = MAX_CHAIN_LENGTH): Generator<unknown> {
  const seen = new Set<unknown>();
  for (let link = error; link !== undefined && link !== null && seen.size < maxLength && !seen.has(link); link = causeOf(link)) {
    seen.add(link);
    yield link;
  }
}

/** The innermost link of the chain (the error itself when it has no cause). */
export function innermostCause(error: unknown, maxLength = MAX_CHAIN_LENGTH): unknown {
  let innermost = error;
  for (const link of causes(error, maxLength)) innermost = link;
  return innermost;
}

function causeOf(error: unknown): unknown {
  return typeof error === 'object' || typeof error === 'function' ? (error as { cause?: unknown }).cause : undefined;
}
