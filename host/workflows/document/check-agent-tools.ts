import { RESERVED_TOOL_NAME } from '../runtime/action-specs.ts';
import { checkToolCycles } from './check-tool-cycles.ts';
import type { FoundProblem } from './workflow-problem.ts';
import { referenceProblem, type WorkflowParts } from './workflow-parts.ts';

/**
 * An `ai_agent` task's `inputs.tools` lists other tasks, offered to the model as tools by name.
 * Each must be a task other than the agent itself, and none may be named `update_memory`: the
 * memory tool has that name, and a custom tool must never shadow it. Agents may not offer one
 * another in a cycle either (see {@link checkToolCycles}).
 */
export function checkAgentTools(parts: WorkflowParts): FoundProblem[] {
  return [...listProblems(parts), ...checkToolCycles(parts)];
}

function listProblems(parts: WorkflowParts): FoundProblem[] {
  return [...parts.tasks].flatMap(([agent, task]): FoundProblem[] => {
    if (task.action !== 'ai_agent' || task.inputs?.tools === undefined) return [];
    const tools = task.inputs.tools;
    const path = ['defs', agent, 'inputs', 'tools'];
    if (!Array.isArray(tools)) {
      return [{ path, code: 'BOT_ERR_WORKFLOW_TOOL_INVALID', message: 'tools must be a list of task names (not an expression: the tools are fixed when the agent starts)' }];
    }
    return tools.flatMap((tool: unknown, index): FoundProblem[] => {
      const problem = tools.indexOf(tool) < index
        ? { code: 'BOT_ERR_WORKFLOW_TOOL_INVALID' as const, message: `"${String(tool)}" is listed twice` }
        : toolProblem(parts, agent, tool);
      return problem ? [{ path: [...path, index], ...problem }] : [];
    });
  });
}

function toolProblem(parts: WorkflowParts, agent: string, tool: unknown): Omit<FoundProblem, 'path'> | undefined {
  if (typeof tool !== 'string') return { code: 'BOT_ERR_WORKFLOW_TOOL_INVALID', message: 'A tool is the name of a task' };
  if (tool === RESERVED_TOOL_NAME) {
    return { code: 'BOT_ERR_WORKFLOW_TOOL_RESERVED', message: `"${RESERVED_TOOL_NAME}" is reserved for the memory tool; rename the task to offer it as a tool` };
  }
  if (tool === agent) return { code: 'BOT_ERR_WORKFLOW_TOOL_INVALID', message: `"${agent}" cannot be a tool of itself` };
  const problem = referenceProblem(parts, tool, 'task');
  return problem ? { code: 'BOT_ERR_WORKFLOW_TASK_UNKNOWN', message: problem } : undefined;
}
