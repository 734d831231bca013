import { jsonSchema, tool, type ToolSet } from 'ai';
import type { ActionInvocation, TaskRunner } from '../runtime/action.ts';
import { RESERVED_TOOL_NAME } from '../runtime/action-specs.ts';
import { invalidInput } from './ai-inputs.ts';

/** Custom tools take any object: the called task reads it as `$input`. */
const FREE_FORM_INPUT = jsonSchema<Record<string, unknown>>({ type: 'object', additionalProperties: true });

/**
 * The `tools` of an `ai_agent` task as AI SDK tools: each name is another task def of the
 * workflow, described to the model by that def's `description`, and run through the runner when
 * the model calls it, with the call's arguments as `$input`. Saving a workflow already rejects
 * unknown names and `update_memory`; this guards against a document that skipped that check.
 */
export function agentTools(invocation: ActionInvocation, names: string[], tasks: TaskRunner): ToolSet {
  const tools: ToolSet = {};
  for (const name of names) {
    const def = Object.hasOwn(invocation.run.document.defs, name) ? invocation.run.document.defs[name] : undefined;
    if (name === RESERVED_TOOL_NAME) throw invalidInput(invocation, 'tools', `${RESERVED_TOOL_NAME} is reserved for memory`);
    if (def?.kind !== 'task') throw invalidInput(invocation, 'tools', `"${name}" is not a task of the workflow`);
    tools[name] = tool({
      description: def.description ?? `Runs the workflow task "${name}".`,
      inputSchema: FREE_FORM_INPUT,
      // A tool result must be JSON; a task with no output answers null.
      execute: async (args) => (await tasks.runTask(name, args)) ?? null,
    });
  }
  return tools;
}
