import { Output } from 'ai';
import type { WorkflowAction } from '../runtime/action.ts';
import { runAiCall } from './ai-call.ts';
import { objectInputsSchema, parseAiInputs } from './ai-inputs.ts';
import { objectSchemaFor } from './ai-object-schema.ts';

/**
 * `ai_generate_object`: generates an object matching the JSON Schema `schema` from `prompt`.
 * The answer is checked against the schema; one that does not match fails the step with
 * `BOT_ERR_AI_OUTPUT_INVALID`. Output: `{ object }`.
 *
 * @example
 * // inputs: { prompt: "Suggest a username", schema: { type: object, properties: { username: { type: string } }, required: [username] } }
 */
export const aiGenerateObjectAction: WorkflowAction = {
  name: 'ai_generate_object',
  async run(invocation, services) {
    const inputs = parseAiInputs(objectInputsSchema, invocation);
    const output = Output.object({ schema: objectSchemaFor(invocation, inputs.schema) });
    const object = await runAiCall(
      invocation,
      services,
      { prompt: inputs.prompt, system: inputs.system, temperature: inputs.temperature, output },
      (result) => result.output,
    );
    return { object };
  },
};
