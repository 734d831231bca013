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

const MAX_CACHED = 5_000;
const cache = new Map<string, jsonata.Expression>();

/**
 * Compiles the JSONata text of an expression (without its leading "="), once per distinct text:
 * workflows run the same few expressions many times. The cache is bounded; the oldest entry
 * goes first.
 */
export function compileExpression(source: string): jsonata.Expression {
  const cached = cache.get(source);
  if (cached) return cached;
  let compiled: jsonata.Expression;
  try {
    compiled = jsonata(source);
  } catch (error) {
    const { message, position } = error as { message?: string; position?: number };
    throw new ExpressionSyntaxError(source, message ?? String(error), position);
  }
  if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value!);
  cache.set(source, compiled);
  return compiled;
}
