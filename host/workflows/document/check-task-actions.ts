import { ACTION_NAMES, ACTION_SPECS, isActionName } from '../runtime/action-specs.ts';
import type { FoundProblem } from './workflow-problem.ts';
import type { WorkflowParts } from './workflow-parts.ts';

/** Every task names a known action, gives the inputs it requires and no input it does not take. */
export function checkTaskActions(parts: WorkflowParts): FoundProblem[] {
  return [...parts.tasks].flatMap(([name, task]): FoundProblem[] => {
    if (!isActionName(task.action)) {
      return [{
        path: ['defs', name, 'action'],
        code: 'BOT_ERR_WORKFLOW_ACTION_UNKNOWN',
        message: `Unknown action "${task.action}"; the actions are ${ACTION_NAMES.join(', ')}`,
      }];
    }
    const spec = ACTION_SPECS[task.action];
    const inputs = task.inputs ?? {};
    const allowed = new Set<string>([...spec.required, ...spec.optional]);
    const missing = spec.required.filter((key) => inputs[key] === undefined || inputs[key] === null).map((key): FoundProblem => ({
      path: ['defs', name, 'inputs', key],
      code: 'BOT_ERR_WORKFLOW_INPUT_MISSING',
      message: `${task.action} requires the input "${key}" (a value, or an expression)`,
    }));
    const unknown = Object.keys(inputs).filter((key) => !allowed.has(key)).map((key): FoundProblem => ({
      path: ['defs', name, 'inputs', key],
      code: 'BOT_ERR_WORKFLOW_INPUT_UNKNOWN',
      message: `${task.action} takes no input "${key}"; it takes ${[...allowed].join(', ') || 'none'}`,
    }));
    return [...missing, ...unknown];
  });
}
