import type { WorkflowAction } from '../runtime/action.ts';
import { agentTools } from './ai-agent-tools.ts';
import { requireText, runAiCall } from './ai-call.ts';
import { agentInputsSchema, parseAiInputs } from './ai-inputs.ts';

const DEFAULT_MAX_STEPS = 5;

/**
 * `ai_agent`: a tool loop of up to `max_steps` model calls (default 5). The model may call
 * `update_memory` (for the task's bound slugs) and the workflow tasks named in `tools`, each run
 * by the runner with the call's arguments as `$input`. Output: `{ text }`, the final answer; it is
 * not sent (a later `send_text_message` can send `<task>.text`).
 *
 * @example
 * // inputs: { prompt: "=$input.text", tools: [lookup_order], max_steps: 4 }
 */
export const aiAgentAction: WorkflowAction = {
  name: 'ai_agent',
  async run(invocation, services) {
    const inputs = parseAiInputs(agentInputsSchema, invocation);
    const tools = agentTools(invocation, inputs.tools ?? [], services.tasks);
    const text = await runAiCall(
      invocation,
      services,
      { prompt: inputs.prompt, system: inputs.system, temperature: inputs.temperature, tools, maxSteps: inputs.max_steps ?? DEFAULT_MAX_STEPS },
      (result) => requireText(invocation, result),
    );
    return { text };
  },
};
