import { AppError } from '../../errors/app-error.ts';
import { compileExpression, ExpressionSyntaxError } from './compile-expression.ts';
import { BRANCH_HOOK, compileWithBranchHook, jsonataTruth } from './compile-with-branch-hook.ts';
import { expressionBindings, type ExpressionScope } from './expression-bindings.ts';
import { ResultBudget, ResultTooLargeError, toPlainData } from './to-plain-data.ts';

export type { ExpressionScope } from './expression-bindings.ts';

/**
 * Nesting of evaluated nodes allowed in one evaluation: about 650 calls of a recursive lambda,
 * far beyond what a workflow needs, and well before a runaway recursion eats the time limit.
 */
export const MAX_EXPRESSION_DEPTH = 2_000;

/**
 * Longest sequence an evaluation may build. Building one is a single node, which the clock
 * check cannot interrupt: JSONata's own cap (ten million for a range) costs about 100 ms and
 * 80 MB before the next check, this one a tenth of that.
 */
export const MAX_EXPRESSION_SEQUENCE = 1_000_000;

/**
 * Most data (bytes of JSON, roughly) an evaluation may yield. A result becomes a step's inputs,
 * stored as jsonb in `workflow_run_steps`, and is often sent on; a string function can build
 * 100 MB well within the time limit (`$pad("", 1e8)`), so the size is bounded on its own.
 */
export const MAX_EXPRESSION_RESULT_BYTES = 1024 * 1024;

export interface EvaluateOptions {
  /** Time limit of this evaluation (`BOT_WORKFLOW_EXPRESSION_TIMEOUT_MS`). */
  timeoutMs: number;
  /** Where the expression sits, for error messages (e.g. `inputs.memory.profile.name`). */
  path?: string;
  /**
   * What the result may take; default a fresh {@link MAX_EXPRESSION_RESULT_BYTES}. Shared by the
   * expressions of one task's inputs, so together they stay under it.
   */
  budget?: ResultBudget;
  /** Told, for each conditional evaluated, its rank (order of its `?`) and whether its test held. */
  onBranch?: (index: number, held: boolean) => void;
}

const MAX_QUOTED = 120;

/** JSONata's codes for "ran longer than the `timeout` option" and "longer than `sequence`". */
const JSONATA_TIMEOUT = 'D1012';
const JSONATA_SEQUENCE_TOO_LONG = 'D2015';

/**
 * Evaluates the JSONata text of an expression (without its leading "=") against the run's scope
 * (see {@link expressionBindings} for the variables) and returns plain JSON data. There is no
 * root document: everything is reached through a variable. A missing value (a memory slug with
 * no record, a field the message lacks) is `undefined`, which `$exists` tests.
 * Throws BOT_ERR_WORKFLOW_EXPRESSION_TIMEOUT past `timeoutMs` (JSONata checks the clock before
 * every node, so a tight loop is stopped too; the event loop is held about that long at most) and
 * BOT_ERR_WORKFLOW_EXPRESSION_RESULT_TOO_LARGE past its budget of result bytes, and
 * BOT_ERR_WORKFLOW_EXPRESSION_FAILED otherwise (errors, too deep a recursion, too long a sequence).
 * @example await evaluateExpression('"Hi " & $input.text', run, { timeoutMs: 1000 }) // 'Hi there'
 */
export async function evaluateExpression(source: string, scope: ExpressionScope, options: EvaluateOptions): Promise<unknown> {
  try {
    const limits = { timeoutMs: options.timeoutMs, maxDepth: MAX_EXPRESSION_DEPTH, maxSequenceLength: MAX_EXPRESSION_SEQUENCE };
    const { onBranch } = options;
    const expression = onBranch ? compileWithBranchHook(source, limits) : compileExpression(source, limits);
    const bindings = await expressionBindings(scope);
    const hook = (index: number, test: unknown) => {
      const held = jsonataTruth(test);
      onBranch?.(index, held);
      return held;
    };
    const budget = options.budget ?? new ResultBudget(MAX_EXPRESSION_RESULT_BYTES);
    return toPlainData(await expression.evaluate(undefined, onBranch ? { ...bindings, [BRANCH_HOOK]: hook } : bindings), budget);
  } catch (error) {
    throw toExpressionError(source, options, error);
  }
}

/** JSONata throws plain objects (`{ code, message, position, token }`), not Errors. */
function toExpressionError(source: string, { timeoutMs, path }: EvaluateOptions, error: unknown): AppError {
  const { code, message, position } = error as { code?: string; message?: string; position?: number };
  const where = `Expression ${path ? `${path} ` : ''}"=${abbreviate(source)}"`;
  const details = { path, expression: `=${source}`, jsonataCode: code, position };
  if (code === JSONATA_TIMEOUT) {
    return new AppError('BOT_ERR_WORKFLOW_EXPRESSION_TIMEOUT', `${where} ran longer than ${timeoutMs} ms`, details, { cause: error });
  }
  if (error instanceof ResultTooLargeError) {
    const limit = error.limitBytes;
    return new AppError('BOT_ERR_WORKFLOW_EXPRESSION_RESULT_TOO_LARGE', `${where} evaluated to more than ${limit} bytes of data (counted with the task's other inputs)`, {
      ...details,
      limitBytes: limit,
    }, { cause: error });
  }
  return new AppError('BOT_ERR_WORKFLOW_EXPRESSION_FAILED', `${where} ${failureReason(error, code, message)}`, details, { cause: error });
}

function failureReason(error: unknown, code: string | undefined, message: string | undefined): string {
  if (error instanceof ExpressionSyntaxError) return `does not compile: ${error.message}`;
  // JSONata's own message quotes the attempted length of a range as if it were the limit.
  if (code === JSONATA_SEQUENCE_TOO_LONG) return `failed: it builds a sequence of more than ${MAX_EXPRESSION_SEQUENCE} items`;
  return `failed: ${message ?? String(error)}`;
}

/** Error messages quote the expression; a long one is cut (`details.expression` has it whole). */
function abbreviate(source: string): string {
  return source.length <= MAX_QUOTED ? source : `${source.slice(0, MAX_QUOTED - 1)}…`;
}
