import type { ModelMessage } from 'ai';
import type { ConversationHistory, RunInput } from '../runtime/action.ts';

/**
 * The conversation window for `input_mode: history`: the last `limit` messages of the thread,
 * oldest first, ending with the inbound message that started the run. The history may or may
 * not already hold that message (it depends on when the runner records it): when its last entry
 * is a user message with the same text it is taken as that message, otherwise the message is
 * appended, and in both cases the window holds at most `limit` messages. Messages without text
 * (an attachment with no caption) are left out: some providers refuse empty content.
 */
export async function historyMessages(history: ConversationHistory, input: RunInput, limit: number): Promise<ModelMessage[]> {
  const entries = (await history.recent(limit)).slice(-limit).filter(({ text }) => text.trim() !== '');
  const current = input.text;
  const last = entries.at(-1);
  if (!current?.trim() || (last?.role === 'user' && last.text === current)) return entries.map(toModelMessage);
  const earlier = limit > 1 ? entries.slice(-(limit - 1)) : [];
  return [...earlier, { role: 'user' as const, text: current }].map(toModelMessage);
}

function toModelMessage({ role, text }: { role: 'user' | 'assistant'; text: string }): ModelMessage {
  return { role, content: text };
}
