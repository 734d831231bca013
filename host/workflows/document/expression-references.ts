import type jsonata from 'jsonata';

/** One name read after a variable: `memory` in `$context.memory`; `start` indexes the JSONata text. */
export interface ReferenceSegment {
  name: string;
  start: number;
}

/**
 * A path an expression reads from a variable: `$context.memory.profile.name` is the variable
 * `context` with the segments `memory`, `profile`, `name`. Segments stop at the first step
 * that is not a plain name (a predicate, a function, a block), past which nothing is known.
 */
export interface VariableReference {
  variable: string;
  /** Where `$` is in the JSONata text. */
  start: number;
  segments: ReferenceSegment[];
}

export interface ExpressionReferences {
  references: VariableReference[];
  /**
   * Names the expression binds itself (`$x := …`, lambda parameters, `@$x` and `#$i`): anywhere
   * in it, so a reference to one of them is never taken for a run variable, whatever its scope.
   */
  localNames: ReadonlySet<string>;
}

/** A node of JSONata's tree, read loosely: its typings leave out `path`, `bind` and the step keys. */
interface AstNode {
  type: string;
  value?: unknown;
  position?: number;
  [key: string]: unknown;
}

/**
 * The variables a compiled JSONata expression reads, with the names read below each, from its
 * syntax tree (`expression.ast()`). `$` and `$$` (the input and the root) are left out.
 *
 * @example
 * expressionReferences(jsonata('$context.memory.visitr.name').ast(), '$context.memory.visitr.name')
 * // { references: [{ variable: 'context', start: 0, segments: [{ name: 'memory', start: 9 }, { name: 'visitr', start: 16 }, …] }], … }
 */
export function expressionReferences(ast: jsonata.ExprNode, source: string): ExpressionReferences {
  const references: VariableReference[] = [];
  const localNames = new Set<string>();
  visit(ast as unknown as AstNode, (node) => {
    collectLocalNames(node, localNames);
    if (node.type === 'path') {
      const reference = pathReference(node, source);
      if (reference) references.push(reference);
    } else if (node.type === 'variable' && isRunVariable(node.value)) {
      references.push({ variable: node.value, start: startOf(node, source), segments: [] });
    }
  });
  return { references: references.filter(({ variable }) => !localNames.has(variable)), localNames };
}

/** Every node of the tree, each once; the variable that starts a path is reported by its path. */
function visit(node: AstNode, onNode: (node: AstNode) => void): void {
  onNode(node);
  for (const [key, child] of Object.entries(node)) {
    const children = Array.isArray(child) ? child : [child];
    children.forEach((item: unknown, index) => {
      if (!isNode(item)) return;
      const startsPath = node.type === 'path' && key === 'steps' && index === 0 && item.type === 'variable';
      if (startsPath) visitInsideStep(item, onNode);
      else visit(item, onNode);
    });
  }
}

/** A path's first step is not a reference of its own, but its predicates may hold some. */
function visitInsideStep(step: AstNode, onNode: (node: AstNode) => void): void {
  for (const child of Object.values(step)) {
    for (const item of Array.isArray(child) ? child : [child]) if (isNode(item)) visit(item, onNode);
  }
}

function collectLocalNames(node: AstNode, names: Set<string>): void {
  if (node.type === 'bind' && isNode(node.lhs) && typeof node.lhs.value === 'string') names.add(node.lhs.value);
  if (node.type === 'lambda' && Array.isArray(node.arguments)) {
    for (const argument of node.arguments) if (isNode(argument) && typeof argument.value === 'string') names.add(argument.value);
  }
  if (typeof node.focus === 'string') names.add(node.focus);
  if (typeof node.index === 'string') names.add(node.index);
}

function pathReference(path: AstNode, source: string): VariableReference | undefined {
  const steps = Array.isArray(path.steps) ? (path.steps as AstNode[]) : [];
  const [first, ...rest] = steps;
  if (!first || first.type !== 'variable' || !isRunVariable(first.value)) return undefined;
  const segments: ReferenceSegment[] = [];
  if (!hasStages(first)) {
    for (const step of rest) {
      if (step.type !== 'name' || typeof step.value !== 'string') break;
      segments.push({ name: step.value, start: startOf(step, source) });
      // A filter or an index narrows which items, not what they are: stop after this name.
      if (hasStages(step)) break;
    }
  }
  return { variable: first.value, start: startOf(first, source), segments };
}

function hasStages(step: AstNode): boolean {
  return ['stages', 'predicate', 'group', 'focus', 'index'].some((key) => step[key] !== undefined);
}

/** `$` and `$$` are the context and the root, not variables a run binds. */
function isRunVariable(value: unknown): value is string {
  return typeof value === 'string' && value !== '' && value !== '$';
}

/**
 * JSONata gives the position just past a token; a name in backquotes (`` `my-task` ``) ends
 * past its closing quote. A variable's `$` is one before its name.
 */
function startOf(node: AstNode, source: string): number {
  const end = node.position ?? 0;
  const name = String(node.value);
  if (node.type === 'variable') return Math.max(end - name.length - 1, 0);
  return source[end - 1] === '`' ? end - name.length - 1 : end - name.length;
}

function isNode(value: unknown): value is AstNode {
  return typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string';
}
