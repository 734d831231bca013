import type { TestRun } from '../../../api/api-types.ts';

/** What the test subscriber sends in one turn: typed text, or a chip's title and payload. */
export interface TurnInput {
  message_type: 'text' | 'quickReply';
  text: string;
  payload?: string;
}

/** One turn of the test chat: what was sent, what it ran, and the run or why it did not run. */
export interface ChatTurn {
  id: number;
  input: TurnInput;
  /** What the turn ran: "the unsaved draft" or "v4". */
  ran: string;
  run?: TestRun;
  error?: string;
}
