import { isExpression } from './compile-expression.ts';
import { evaluateExpression, MAX_EXPRESSION_RESULT_BYTES, type EvaluateOptions, type ExpressionScope } from './evaluate-expression.ts';
import { ResultBudget } from './to-plain-data.ts';
import type { BranchLog } from './branch-log.ts';
import { setOwnProperty } from '../../json/set-own-property.ts';

/**
 * Evaluates a task's inputs: walks them deeply and replaces every string starting with "=" by
 * the result of its expression; other values are copied as they are. Each expression is
 * evaluated exactly once and its result is data, never walked again: a subscriber who types
 * `=$context` gets that text echoed, not the run's context. Expressions run one after another,
 * each with its own time limit, and all of them share one budget of result bytes
 * ({@link MAX_EXPRESSION_RESULT_BYTES}), so many expressions cannot add up to what one may not
 * yield; the first failure stops the walk with its coded error. With `branches`, each
 * conditional evaluated is logged with the way it went (the run is drawn with it).
 * @example await evaluateInputs({ text: '="Hi " & $input.text' }, run, { timeoutMs: 1000 }) // { text: 'Hi there' }
 */
export async function evaluateInputs(
  inputs: Record<string, unknown>,
  scope: ExpressionScope,
  options: WalkOptions,
): Promise<Record<string, unknown>> {
  const budget = options.budget ?? new ResultBudget(MAX_EXPRESSION_RESULT_BYTES);
  return (await evaluateValue(inputs, 'inputs', scope, { ...options, budget })) as Record<string, unknown>;
}

type WalkOptions = Omit<EvaluateOptions, 'path' | 'onBranch'> & { branches?: BranchLog };

async function evaluateValue(value: unknown, path: string, scope: ExpressionScope, options: WalkOptions): Promise<unknown> {
  if (isExpression(value)) return evaluateExpression(value.slice(1), scope, { ...evaluateOptions(options, path), path });
  if (Array.isArray(value)) {
    const items: unknown[] = [];
    for (const [index, item] of value.entries()) {
      items.push((await evaluateValue(item, `${path}[${index}]`, scope, options)) ?? null);
    }
    return items;
  }
  if (typeof value !== 'object' || value === null) return value;
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    const evaluated = await evaluateValue(item, `${path}.${key}`, scope, options);
    // A missing value leaves its key out, as JSON would, so `$exists` and defaults see no key.
    if (evaluated !== undefined) setOwnProperty(copy, key, evaluated);
  }
  return copy;
}

/** The options of one expression: its branches are logged under its path below `inputs`. */
function evaluateOptions({ branches, ...options }: WalkOptions, path: string): Omit<EvaluateOptions, 'path'> {
  const input = path.replace(/^inputs\.?/, '');
  return branches ? { ...options, onBranch: (index, held) => branches.record(input, index, held) } : options;
}
