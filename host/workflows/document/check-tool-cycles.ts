import type { FoundProblem } from './workflow-problem.ts';
import type { WorkflowParts } from './workflow-parts.ts';

/** Task name → the tasks its `inputs.tools` offers, each with its index in that list. */
type ToolGraph = ReadonlyMap<string, readonly { tool: string; index: number }[]>;

/**
 * Agents may not offer one another as tools in a cycle (A offers B, B offers A; or longer): the
 * model could call round it without end, each call a nested run of the next agent. Every entry
 * of `inputs.tools` that lies on a cycle is reported at its own YAML path, with the cycle it
 * closes, so each agent involved shows where to break it. An agent naming itself is
 * `checkAgentTools`'s problem, not repeated here.
 *
 * @example
 * // a: { action: ai_agent, inputs: { tools: [b] } }, b: { action: ai_agent, inputs: { tools: [a] } }
 * checkToolCycles(parts); // problems at defs.a.inputs.tools.0 (a → b → a) and defs.b.inputs.tools.0 (b → a → b)
 */
export function checkToolCycles(parts: WorkflowParts): FoundProblem[] {
  const graph = toolGraph(parts);
  return [...graph].flatMap(([agent, tools]) =>
    tools.flatMap(({ tool, index }): FoundProblem[] => {
      const back = shortestPath(graph, tool, agent);
      if (!back) return [];
      return [{
        path: ['defs', agent, 'inputs', 'tools', index],
        code: 'BOT_ERR_WORKFLOW_TOOL_CYCLE',
        message: `"${tool}" leads back to "${agent}" (${[agent, ...back].join(' → ')}): agents cannot offer one another as tools in a cycle`,
      }];
    }),
  );
}

/** The edges of every `ai_agent` task's tool list: first mentions of other tasks only. */
function toolGraph(parts: WorkflowParts): ToolGraph {
  const graph = new Map<string, { tool: string; index: number }[]>();
  for (const [agent, task] of parts.tasks) {
    const tools: unknown = task.inputs?.tools;
    if (task.action !== 'ai_agent' || !Array.isArray(tools)) continue;
    const edges = tools.flatMap((tool: unknown, index) =>
      typeof tool === 'string' && tool !== agent && parts.tasks.has(tool) && tools.indexOf(tool) === index ? [{ tool, index }] : [],
    );
    graph.set(agent, edges);
  }
  return graph;
}

/** The task names from `from` to `to` along tool edges (both included), breadth first; undefined when unreachable. */
function shortestPath(graph: ToolGraph, from: string, to: string): string[] | undefined {
  const cameFrom = new Map<string, string | undefined>([[from, undefined]]);
  const queue = [from];
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    if (next === to) return pathTo(cameFrom, to);
    for (const { tool } of graph.get(next) ?? []) {
      if (cameFrom.has(tool)) continue;
      cameFrom.set(tool, next);
      queue.push(tool);
    }
  }
  return undefined;
}

function pathTo(cameFrom: ReadonlyMap<string, string | undefined>, to: string): string[] {
  const path: string[] = [];
  for (let step: string | undefined = to; step !== undefined; step = cameFrom.get(step)) path.unshift(step);
  return path;
}
