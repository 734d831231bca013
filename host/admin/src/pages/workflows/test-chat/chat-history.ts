import type { TestHistoryEntry } from '../../../api/api-types.ts';
import { botMessageText } from './bot-message-view.ts';
import type { ChatTurn } from './chat-turn-types.ts';

/** The server's bounds on a test run's `history` (see host/workflows/test-run-history.ts). */
export const MAX_HISTORY_ENTRIES = 50;
export const MAX_HISTORY_TEXT = 4_000;

/**
 * The conversation so far as a test run's `history`: each turn that ran, what the subscriber
 * said and what the bot would have said, the last 50 entries, each text cut to 4,000 characters
 * (a long chat keeps going, its oldest turns fall out of the window). A turn that did not run (a
 * refused draft) never reached the bot, so it is left out.
 */
export function chatHistory(turns: ChatTurn[]): TestHistoryEntry[] {
  const entries = turns.flatMap((turn): TestHistoryEntry[] => {
    if (!turn.run) return [];
    const said: TestHistoryEntry[] = turn.input.text ? [{ role: 'user', text: turn.input.text }] : [];
    const answered = turn.run.messages.map((message): TestHistoryEntry => ({ role: 'assistant', text: botMessageText(message) }));
    return [...said, ...answered];
  });
  return entries.slice(-MAX_HISTORY_ENTRIES).map((entry) => ({ ...entry, text: entry.text.slice(0, MAX_HISTORY_TEXT) }));
}
