import type { ModelMessage } from 'ai';
import type { ActionInvocation, ActionServices, WorkflowAction } from '../runtime/action.ts';
import { requireText, runAiCall } from './ai-call.ts';
import { historyMessages } from './ai-history-messages.ts';
import { invalidInput, parseAiInputs, replyInputsSchema } from './ai-inputs.ts';

const DEFAULT_MESSAGES_LIMIT = 10;

/**
 * `ai_generate_reply`: answers the subscriber and sends the answer as a text message. With
 * `input_mode: history` the model sees the last `messages_limit` messages of the thread (default
 * 10, ending with the inbound one); otherwise the `prompt` input, else the inbound text.
 * Output: `{ text }`.
 *
 * @example
 * // defs.reply: { kind: task, action: ai_generate_reply, inputs: { input_mode: history, messages_limit: 6, system: "Be brief." } }
 */
export const aiGenerateReplyAction: WorkflowAction = {
  name: 'ai_generate_reply',
  async run(invocation, services) {
    const inputs = parseAiInputs(replyInputsSchema, invocation);
    const prompt = await promptFor(invocation, services, inputs);
    const text = await runAiCall(
      invocation,
      services,
      { prompt, system: inputs.system, temperature: inputs.temperature, maxOutputTokens: inputs.max_output_tokens },
      (result) => requireText(invocation, result),
    );
    await services.outbox.send({ type: 'text', data: { text } });
    return { text };
  },
};

async function promptFor(
  invocation: ActionInvocation,
  services: ActionServices,
  inputs: { input_mode?: 'history' | 'prompt' | undefined; messages_limit?: number | undefined; prompt?: string | undefined },
): Promise<string | ModelMessage[]> {
  if (inputs.input_mode === 'history') {
    if (inputs.prompt !== undefined) throw invalidInput(invocation, 'prompt', 'cannot be combined with input_mode: history');
    const messages = await historyMessages(services.history, invocation.run.input, inputs.messages_limit ?? DEFAULT_MESSAGES_LIMIT);
    if (messages.length > 0) return messages;
    throw invalidInput(invocation, 'input_mode', 'the conversation has no messages to answer');
  }
  const prompt = inputs.prompt ?? invocation.run.input.text;
  if (prompt?.trim()) return prompt;
  throw invalidInput(invocation, 'prompt', 'is empty and the inbound message has no text');
}
