import type { FoundProblem } from './workflow-problem.ts';
import { referenceProblem, type WorkflowParts } from './workflow-parts.ts';

/** Every flow step names a `kind: task` def. */
export function checkFlow(parts: WorkflowParts): FoundProblem[] {
  return parts.flow.flatMap(({ index, task }): FoundProblem[] => {
    const problem = referenceProblem(parts, task, 'task');
    return problem ? [{ path: ['flow', index, 'do'], code: 'BOT_ERR_WORKFLOW_TASK_UNKNOWN', message: problem }] : [];
  });
}
