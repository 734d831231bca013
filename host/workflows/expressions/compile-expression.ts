import jsonata from 'jsonata';

/** A workflow input value that is an expression: a string starting with "=" (the rest is JSONata). */
export function isExpression(value: unknown): value is string {
  return typeof value === 'string' && value.startsWith('=');
}

/** A JSONata expression that does not compile; `position` is the character offset in the source. */
export class ExpressionSyntaxError extends Error {
  readonly code = 'BOT_ERR_WORKFLOW_EXPRESSION_INVALID';

  constructor(
    readonly source: string,
    message: string,
    readonly position: number | undefined,
  ) {
    super(message);
    this.name = 'ExpressionSyntaxError';
  }
}

/**
 * Limits JSONata enforces itself (its `timeout`, `stack` and `sequence` options), checked before
 * it evaluates each node of the expression tree: a loop or a recursion written in JSONata never
 * yields to the event loop, so a timer could not stop it, but these checks do. Work inside one
 * node (building a range, a native function over an array) is bounded by the sequence length.
 */
export interface EvaluationLimits {
  /** Wall-clock limit of one evaluation, in milliseconds. */
  timeoutMs: number;
  /** Deepest nesting of evaluated nodes; a recursive lambda adds about 3 per call. */
  maxDepth: number;
  /** Longest sequence (range, mapped array) an evaluation may build. */
  maxSequenceLength: number;
}

const MAX_CACHED = 5_000;
const cache = new Map<string, jsonata.Expression>();

/**
 * Compiles the JSONata text of an expression (without its leading "="), once per distinct text
 * and limits: workflows run the same few expressions many times, and JSONata fixes the limits
 * when it compiles. The cache is bounded; the oldest entry goes first.
 */
export function compileExpression(source: string, limits?: EvaluationLimits): jsonata.Expression {
  const key = limits ? `${limits.timeoutMs}:${limits.maxDepth}:${limits.maxSequenceLength}:${source}` : source;
  const cached = cache.get(key);
  if (cached) return cached;
  let compiled: jsonata.Expression;
  try {
    compiled = jsonata(source, limits && { timeout: limits.timeoutMs, stack: limits.maxDepth, sequence: limits.maxSequenceLength });
  } catch (error) {
    const { message, position } = error as { message?: string; position?: number };
    throw new ExpressionSyntaxError(source, message ?? String(error), position);
  }
  if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value!);
  cache.set(key, compiled);
  return compiled;
}
