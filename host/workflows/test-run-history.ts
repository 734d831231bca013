import { z } from 'zod';
import type { ConversationHistory } from './runtime/action.ts';

/** The most earlier turns a test run takes: more than any `messages_limit` worth testing with. */
export const MAX_TEST_HISTORY_ENTRIES = 50;
/** The longest text of one earlier turn, in characters. */
export const MAX_TEST_HISTORY_TEXT = 4_000;

/**
 * The earlier turns of a test conversation, sent by the caller with each turn. The transcript is
 * held by whoever shows it (the editor's docked chat), not by the server: a test conversation
 * then needs no table, no expiry and no cleanup, and a "New conversation" is an empty list. It
 * only feeds `history.recent` of a test run, which acts on test memory alone, so trusting the
 * caller's account of it gives nothing away; the bounds keep each request small.
 */
export const testRunHistorySchema = z
  .array(z.object({ role: z.enum(['user', 'assistant']), text: z.string().max(MAX_TEST_HISTORY_TEXT) }).strict())
  .max(MAX_TEST_HISTORY_ENTRIES)
  .describe(
    `The test conversation's earlier turns, oldest first (at most ${MAX_TEST_HISTORY_ENTRIES}, each text at most ${MAX_TEST_HISTORY_TEXT} characters): ` +
      "what AI actions with `input_mode: history` see before this turn's message",
  );

export type TestRunHistory = z.infer<typeof testRunHistorySchema>;

/**
 * A test run's conversation: the turns before the run (the earlier ones and this turn's message),
 * then what the run has said so far, read at each call: a later step sees an earlier step's
 * reply, as in a live thread.
 */
export function testRunConversation(before: TestRunHistory, said: () => TestRunHistory): ConversationHistory {
  return { recent: async (limit) => [...before, ...said()].slice(-limit) };
}
