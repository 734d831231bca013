import { Output } from 'ai';
import type { WorkflowAction } from '../runtime/action.ts';
import { runAiCall } from './ai-call.ts';
import { inferInputsSchema, invalidInput, parseAiInputs } from './ai-inputs.ts';
import { objectSchemaFor } from './ai-object-schema.ts';

/** Tells the model to extract rather than invent; the task's `system` comes after it. */
const EXTRACTION_INSTRUCTIONS =
  'Extract the information the JSON schema asks for from the text you are given. Leave out what the text does not say.';

/**
 * `ai_infer_object`: extracts an object matching the JSON Schema `schema` from `text` (default:
 * the inbound message's text), e.g. a name and a date from "I'm Ada, book me for Friday".
 * Output: `{ object }`.
 *
 * @example
 * // inputs: { schema: { type: object, properties: { name: { type: string } } } }  → { object: { name: "Ada" } }
 */
export const aiInferObjectAction: WorkflowAction = {
  name: 'ai_infer_object',
  async run(invocation, services) {
    const inputs = parseAiInputs(inferInputsSchema, invocation);
    const text = inputs.text ?? invocation.run.input.text;
    if (!text?.trim()) throw invalidInput(invocation, 'text', 'is empty and the inbound message has no text');
    const output = Output.object({ schema: objectSchemaFor(invocation, inputs.schema) });
    const system = inputs.system ? `${EXTRACTION_INSTRUCTIONS}\n\n${inputs.system}` : EXTRACTION_INSTRUCTIONS;
    const object = await runAiCall(
      invocation,
      services,
      { prompt: text, system, temperature: inputs.temperature, output },
      (result) => result.output,
    );
    return { object };
  },
};
