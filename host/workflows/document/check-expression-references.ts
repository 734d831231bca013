import { compileExpression } from '../expressions/compile-expression.ts';
import { expressionReferences, type VariableReference } from './expression-references.ts';
import type { KnownDefinitions } from './known-memory-definitions.ts';
import { referenceProblem } from './reference-problem.ts';
import { taskExpressions, type TaskExpression } from './task-expressions.ts';
import { taskScope } from './task-run-order.ts';
import type { FoundProblem } from './workflow-problem.ts';
import type { WorkflowParts } from './workflow-parts.ts';

/** An expression that compiles, with the variables it reads. */
export interface ReadExpression extends TaskExpression {
  references: VariableReference[];
}

/** The tasks' expressions that compile, with what each reads; the rest are `checkExpressions`' problems. */
export function readExpressions(parts: WorkflowParts): ReadExpression[] {
  return taskExpressions(parts).flatMap((expression) => {
    let ast;
    try {
      ast = compileExpression(expression.source).ast();
    } catch {
      return [];
    }
    return [{ ...expression, references: expressionReferences(ast, expression.source).references }];
  });
}

/** The slugs expressions read as `$context.memory.<slug>`, for the definitions to look up. */
export function memorySlugsRead(expressions: readonly ReadExpression[]): string[] {
  return expressions.flatMap(({ references }) =>
    references.flatMap(({ variable, segments: [key, slug] }) => (variable === 'context' && key?.name === 'memory' && slug ? [slug.name] : [])),
  );
}

/**
 * Every name an expression reads is one the run binds when its task runs: `$context.memory`
 * slugs and their schema fields, `$context` keys, `$input` fields, outputs of earlier steps
 * (`$outputs.<task>` or `$<task>`), JSONata functions. Each problem is placed at the wrong name:
 * `position` is its 1-based character in the JSONata text, its index in the "=" value.
 *
 * @example
 * await checkExpressionReferences(parts, readExpressions(parts), known);
 * // [{ path: ['defs', 'greet', 'inputs', 'text'], code: 'BOT_ERR_WORKFLOW_REFERENCE_UNKNOWN', position: 17, … }]
 */
export async function checkExpressionReferences(parts: WorkflowParts, expressions: readonly ReadExpression[], known: KnownDefinitions): Promise<FoundProblem[]> {
  const problems: FoundProblem[] = [];
  for (const { task, path, references } of expressions) {
    const site = { parts, task, scope: taskScope(parts, task), known };
    for (const reference of references) {
      const problem = await referenceProblem(reference, site);
      if (problem) problems.push({ path, code: problem.code, message: problem.message, position: problem.start + 1 });
    }
  }
  return problems;
}
