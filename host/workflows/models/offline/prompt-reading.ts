import type { ModelPromptMessage } from '../language-model-types.ts';

/**
 * Reads what the offline model answers from out of the provider-level prompt: the text of the
 * last user message, the system text, and the inputs of tool calls made earlier in the loop.
 */

/** The text of the last user message ('' when there is none). */
export function lastUserText(prompt: ModelPromptMessage[]): string {
  const message = prompt.findLast((entry) => entry.role === 'user');
  if (!message || message.role !== 'user') return '';
  return message.content
    .flatMap((part) => (part.type === 'text' ? [part.text] : []))
    .join('\n')
    .trim();
}

/** All system messages, joined. */
export function systemText(prompt: ModelPromptMessage[]): string {
  return prompt.flatMap((entry) => (entry.role === 'system' ? [entry.content] : [])).join('\n\n');
}

/** Inputs of the tool calls the model made so far in this loop, by tool name, oldest first. */
export function earlierToolInputs(prompt: ModelPromptMessage[], toolName: string): unknown[] {
  return prompt.flatMap((entry) =>
    entry.role === 'assistant'
      ? entry.content.flatMap((part) => (part.type === 'tool-call' && part.toolName === toolName ? [part.input] : []))
      : [],
  );
}

/** True when the last message is a tool result: the model already acted on the user's message. */
export function answersToolResult(prompt: ModelPromptMessage[]): boolean {
  return prompt.at(-1)?.role === 'tool';
}
