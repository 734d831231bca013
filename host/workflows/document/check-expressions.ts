import { compileExpression, ExpressionSyntaxError } from '../expressions/compile-expression.ts';
import type { FoundProblem } from './workflow-problem.ts';
import type { WorkflowParts } from './workflow-parts.ts';
import { taskExpressions, type TaskExpression } from './task-expressions.ts';

/** Every string starting with "=" anywhere in a task's inputs compiles as JSONata. */
export function checkExpressions(parts: WorkflowParts): FoundProblem[] {
  return taskExpressions(parts).flatMap(compileProblem);
}

function compileProblem({ source, path }: TaskExpression): FoundProblem[] {
  try {
    compileExpression(source);
    return [];
  } catch (error) {
    if (!(error instanceof ExpressionSyntaxError)) throw error;
    const at = error.position === undefined ? '' : ` (at character ${error.position})`;
    return [{
      path,
      code: 'BOT_ERR_WORKFLOW_EXPRESSION_INVALID',
      message: `The expression does not compile: ${error.message}${at}`,
      position: error.position,
    }];
  }
}
