import { isExpression } from '../expressions/compile-expression.ts';
import type { YamlPath } from './workflow-problem.ts';
import type { WorkflowParts } from './workflow-parts.ts';

/** One `=` expression in a task's inputs: its JSONata text (after "=") and where it is written. */
export interface TaskExpression {
  task: string;
  path: YamlPath;
  source: string;
}

/**
 * Every string starting with "=" anywhere in the tasks' inputs, nested maps and lists included.
 *
 * @example
 * taskExpressions(parts); // [{ task: 'greet', path: ['defs', 'greet', 'inputs', 'text'], source: '"Hi " & $input.text' }]
 */
export function taskExpressions(parts: WorkflowParts): TaskExpression[] {
  return [...parts.tasks].flatMap(([task, def]) => expressionsIn(task, def.inputs, ['defs', task, 'inputs']));
}

function expressionsIn(task: string, value: unknown, path: YamlPath): TaskExpression[] {
  if (isExpression(value)) return [{ task, path, source: value.slice(1) }];
  if (Array.isArray(value)) return value.flatMap((item, index) => expressionsIn(task, item, [...path, index]));
  if (typeof value === 'object' && value !== null) {
    return Object.entries(value).flatMap(([key, item]) => expressionsIn(task, item, [...path, key]));
  }
  return [];
}
