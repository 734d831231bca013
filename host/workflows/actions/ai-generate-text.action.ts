import type { WorkflowAction } from '../runtime/action.ts';
import { requireText, runAiCall } from './ai-call.ts';
import { parseAiInputs, textInputsSchema } from './ai-inputs.ts';

/**
 * `ai_generate_text`: generates text from `prompt` (and `system`) without sending it; later
 * steps use it as `<task>.text`. Output: `{ text }`.
 *
 * @example
 * // defs.summary: { kind: task, action: ai_generate_text, inputs: { prompt: "=\"Summarise: \" & $input.text" } }
 */
export const aiGenerateTextAction: WorkflowAction = {
  name: 'ai_generate_text',
  async run(invocation, services) {
    const inputs = parseAiInputs(textInputsSchema, invocation);
    const text = await runAiCall(
      invocation,
      services,
      { prompt: inputs.prompt, system: inputs.system, temperature: inputs.temperature, maxOutputTokens: inputs.max_output_tokens },
      (result) => requireText(invocation, result),
    );
    return { text };
  },
};
