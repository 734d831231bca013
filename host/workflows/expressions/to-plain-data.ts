import { setOwnProperty } from '../../json/set-own-property.ts';

/** Raised by {@link toPlainData} when a result outgrows its {@link ResultBudget}. */
export class ResultTooLargeError extends Error {
  constructor(readonly limitBytes: number) {
    super(`the result is larger than ${limitBytes} bytes`);
    this.name = 'ResultTooLargeError';
  }
}

/**
 * The bytes results may still take, counted roughly as their JSON (UTF-8 strings with quotes,
 * keys, digits, brackets; escapes not counted). One budget can be shared by several results, so
 * together they stay under `limitBytes`.
 */
export class ResultBudget {
  #remaining: number;

  constructor(readonly limitBytes: number) {
    this.#remaining = limitBytes;
  }

  /** Counts a string; a string longer than what is left fails before its bytes are counted. */
  spendString(text: string): void {
    // UTF-8 takes at least one byte per UTF-16 unit, so this fails a 100 MB string in O(1).
    if (text.length > this.#remaining) throw new ResultTooLargeError(this.limitBytes);
    this.spend(Buffer.byteLength(text) + 2);
  }

  spend(bytes: number): void {
    this.#remaining -= bytes;
    if (this.#remaining < 0) throw new ResultTooLargeError(this.limitBytes);
  }
}

/**
 * Turns a JSONata result into plain JSON data before it becomes an input or an output: JSONata
 * sequences are arrays carrying flags (`sequence`, `keepSingleton`, …), and a result may hold
 * functions (a lambda, a regex, `$string` itself) whose values reach back into the evaluator.
 * Functions become `undefined`, so an object drops them and an array holds `null` instead, as
 * `JSON.stringify` would. The copy is deep, so no output shares objects with the run's state.
 * Each value is counted against `budget` as it is copied, so an oversized result (`$pad("", 1e8)`
 * evaluates well within the time limit) throws {@link ResultTooLargeError} before it is stored
 * or sent, without serialising it first.
 * @example toPlainData(await compileExpression('[1, 2]').evaluate(undefined)) // [1, 2], a plain array
 */
export function toPlainData(value: unknown, budget = new ResultBudget(Number.POSITIVE_INFINITY)): unknown {
  if (typeof value === 'string') {
    budget.spendString(value);
    return value;
  }
  if (value === null || typeof value === 'boolean' || typeof value === 'number') return plainScalar(value, budget);
  if (Array.isArray(value)) {
    budget.spend(2);
    return value.map((item) => {
      budget.spend(1);
      return toPlainData(item, budget) ?? plainScalar(null, budget);
    });
  }
  if (isLambda(value) || typeof value !== 'object') return undefined;
  budget.spend(2);
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    const plain = toPlainData(item, budget);
    if (plain === undefined) continue;
    budget.spendString(key);
    budget.spend(2);
    setOwnProperty(copy, key, plain);
  }
  return copy;
}

function plainScalar(value: null | boolean | number, budget: ResultBudget): null | boolean | number {
  const plain = typeof value === 'number' && !Number.isFinite(value) ? null : value;
  budget.spend(String(plain).length);
  return plain;
}

/** JSONata's own functions are objects marked like this, not JavaScript functions. */
function isLambda(value: unknown): boolean {
  return typeof value === 'object' && value !== null && '_jsonata_lambda' in value;
}
