import { compileExpression, ExpressionSyntaxError, isExpression } from '../expressions/compile-expression.ts';
import type { FoundProblem, YamlPath } from './workflow-problem.ts';
import type { WorkflowParts } from './workflow-parts.ts';

/** Every string starting with "=" anywhere in a task's inputs compiles as JSONata. */
export function checkExpressions(parts: WorkflowParts): FoundProblem[] {
  return [...parts.tasks].flatMap(([name, task]) => expressionProblems(task.inputs, ['defs', name, 'inputs']));
}

function expressionProblems(value: unknown, path: YamlPath): FoundProblem[] {
  if (isExpression(value)) return compileProblem(value, path);
  if (Array.isArray(value)) return value.flatMap((item, index) => expressionProblems(item, [...path, index]));
  if (typeof value === 'object' && value !== null) {
    return Object.entries(value).flatMap(([key, item]) => expressionProblems(item, [...path, key]));
  }
  return [];
}

function compileProblem(expression: string, path: YamlPath): FoundProblem[] {
  try {
    compileExpression(expression.slice(1));
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
