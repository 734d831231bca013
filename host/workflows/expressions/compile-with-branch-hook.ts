import jsonata from 'jsonata';
import { compileExpression, type EvaluationLimits } from './compile-expression.ts';

/**
 * The variable the instrumented expression calls with each conditional's rank and test value. Its
 * space makes it a name JSONata source cannot write (a name ends at whitespace), so an author's
 * expression can neither call it (forged or unbounded branch logs) nor rebind it (a conditional
 * that then branches differently than without logging); only the instrumented nodes reach it.
 */
export const BRANCH_HOOK = 'branch taken';

/** The hook's signature: it returns the test's truth, which the conditional then branches on. */
export type BranchHook = (index: number, test: unknown) => boolean;

interface AstNode {
  type?: string;
  position?: number;
  condition?: AstNode;
  [key: string]: unknown;
}

const MAX_CACHED = 1_000;
const cache = new Map<string, jsonata.Expression>();

/**
 * The expression compiled with every conditional's test wrapped in a call to the hook {@link BRANCH_HOOK}
 * (rank, test): the evaluation reports which way each conditional went, from JSONata's own
 * evaluation rather than a second one (a test may read loop variables, or cost time). Ranks
 * follow the order of the `?` marks in the source, as the editor numbers them. A copy of its
 * own: the shared compiled expression stays as written. Syntax errors throw as
 * {@link compileExpression} does.
 */
export function compileWithBranchHook(source: string, limits: EvaluationLimits): jsonata.Expression {
  const key = `${limits.timeoutMs}:${limits.maxDepth}:${limits.maxSequenceLength}:${source}`;
  const cached = cache.get(key);
  if (cached) return cached;
  compileExpression(source, limits); // throws the coded syntax error
  const compiled = jsonata(source, { timeout: limits.timeoutMs, stack: limits.maxDepth, sequence: limits.maxSequenceLength });
  instrumentConditions(compiled.ast() as AstNode);
  if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value!);
  cache.set(key, compiled);
  return compiled;
}

/** `ast()` returns the tree the expression evaluates, so wrapping its tests in place instruments it. */
function instrumentConditions(root: AstNode): void {
  const conditions: AstNode[] = [];
  collectConditions(root, conditions);
  conditions.sort((a, b) => (a.position ?? 0) - (b.position ?? 0));
  for (const [index, node] of conditions.entries()) {
    const position = node.position;
    node.condition = {
      type: 'function',
      value: '(',
      position,
      procedure: { type: 'variable', value: BRANCH_HOOK, position },
      arguments: [{ type: 'number', value: index, position }, node.condition],
    };
  }
}

function collectConditions(node: unknown, found: AstNode[]): void {
  if (typeof node !== 'object' || node === null) return;
  if ((node as AstNode).type === 'condition') found.push(node as AstNode);
  for (const child of Object.values(node)) {
    if (Array.isArray(child)) for (const item of child) collectConditions(item, found);
    else collectConditions(child, found);
  }
}

/**
 * JSONata's truth of a value (its `$boolean`, undefined being false), which a conditional
 * branches on: empty strings, arrays and objects, 0, null and functions are false.
 */
export function jsonataTruth(value: unknown): boolean {
  if (Array.isArray(value)) return value.length === 1 ? jsonataTruth(value[0]) : value.some((item) => jsonataTruth(item));
  if (typeof value === 'string') return value.length > 0;
  if (typeof value === 'number') return value !== 0;
  if (typeof value === 'boolean') return value;
  if (typeof value === 'function') return false;
  if (typeof value === 'object' && value !== null) return Object.keys(value).length > 0;
  return false;
}
