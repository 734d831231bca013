/**
 * Turns a JSONata result into plain JSON data before it becomes an input or an output: JSONata
 * sequences are arrays carrying flags (`sequence`, `keepSingleton`, …), and a result may hold
 * functions (a lambda, a regex, `$string` itself) whose values reach back into the evaluator.
 * Functions become `undefined`, so an object drops them and an array holds `null` instead, as
 * `JSON.stringify` would. The copy is deep, so no output shares objects with the run's state.
 * @example toPlainData(await compileExpression('[1, 2]').evaluate(undefined)) // [1, 2], a plain array
 */
export function toPlainData(value: unknown): unknown {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (Array.isArray(value)) return value.map((item) => toPlainData(item) ?? null);
  if (isLambda(value) || typeof value !== 'object') return undefined;
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    const plain = toPlainData(item);
    if (plain !== undefined) copy[key] = plain;
  }
  return copy;
}

/** JSONata's own functions are objects marked like this, not JavaScript functions. */
function isLambda(value: unknown): boolean {
  return typeof value === 'object' && value !== null && '_jsonata_lambda' in value;
}
