import type { WorkflowParts } from './workflow-parts.ts';

/** What a task can see when it runs: the outputs that may exist, and what `$input` holds. */
export interface TaskScope {
  /** Tasks whose outputs may exist when it runs; undefined when any task's may (an agent tool). */
  outputsBefore: ReadonlySet<string> | undefined;
  /** An agent's tool gets the tool call's arguments as `$input`, whatever the model sends. */
  isTool: boolean;
}

/**
 * The scope of a task from the flow: steps run in order, so a task sees the outputs of the steps
 * before its last appearance (a task listed twice sees more the second time; only what no run
 * can see is refused). A task that is an agent's tool runs inside that agent's step, and a task
 * outside the flow never runs: for both, any task's output is accepted.
 *
 * @example
 * taskScope(parts, 'greet'); // { outputsBefore: Set { 'ask' }, isTool: false } for `flow: [do: ask, do: greet]`
 */
export function taskScope(parts: WorkflowParts, task: string): TaskScope {
  const isTool = toolTasks(parts).has(task);
  const last = parts.flow.findLastIndex((step) => step.task === task);
  if (isTool || last < 0) return { outputsBefore: undefined, isTool };
  return { outputsBefore: new Set(parts.flow.slice(0, last).map((step) => step.task)), isTool };
}

function toolTasks(parts: WorkflowParts): Set<string> {
  const tools = [...parts.tasks.values()].flatMap((task) => (task.action === 'ai_agent' && Array.isArray(task.inputs?.tools) ? task.inputs.tools : []));
  return new Set(tools.filter((tool): tool is string => typeof tool === 'string'));
}
