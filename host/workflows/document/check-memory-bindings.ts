import type { FoundProblem, YamlPath } from './workflow-problem.ts';
import { referenceProblem, type WorkflowParts } from './workflow-parts.ts';

/** Every `bindings.memory` entry, of the workflow or of a task, names a `kind: memory` def. */
export function checkMemoryBindings(parts: WorkflowParts): FoundProblem[] {
  const workflow = bindingProblems(parts, ['bindings', 'memory'], parts.bindings?.memory);
  const tasks = [...parts.tasks].flatMap(([name, task]) => bindingProblems(parts, ['defs', name, 'bindings', 'memory'], task.bindings?.memory));
  return [...workflow, ...tasks];
}

function bindingProblems(parts: WorkflowParts, path: YamlPath, names: readonly string[] | undefined): FoundProblem[] {
  return (names ?? []).flatMap((name, index): FoundProblem[] => {
    const problem = referenceProblem(parts, name, 'memory');
    return problem ? [{ path: [...path, index], code: 'BOT_ERR_WORKFLOW_MEMORY_UNKNOWN', message: problem }] : [];
  });
}
