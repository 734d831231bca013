import type { StdOutgoingMessageEnvelope } from '@bot-ai/api';
import type { SendClaimer } from './outbox-records.ts';
import type { SentReply } from './sent-replies-sql.ts';

/** Replies to the subscriber. In a test run nothing is sent: the messages are collected. */
export interface RunOutbox {
  /**
   * Sends one envelope through the channel's `doSendMessage` in its sandbox, honouring its
   * capabilities and `maxTextLength`. Recorded before it is attempted and marked after, so a
   * retried run never sends the same reply twice.
   */
  send(envelope: StdOutgoingMessageEnvelope): Promise<{ mid: string | undefined }>;
  /**
   * The replies accepted since last asked, not yet marked sent: the runner marks them in the
   * statement that records their step (a test run's outbox has none: it records nothing).
   */
  takeSentReplies(): SentReply[];
  /**
   * Has the step's first send claimed by `claimer` instead of by the outbox's own statement: the
   * runner's, which commits the previous step's record in the same statement, one round trip for
   * both. Absent on an outbox that records nothing (a test run's).
   */
  carryFirstClaim?(claimer: SendClaimer): void;
}
