import type { Run, RunStep } from '../../api/api-types.ts';

/** A run as the runs API lists it: with its subscriber's name (null for a test run). */
export type ListedRun = Run & { subscriberName: string | null };

/** One message of a run's thread. */
export interface ConversationMessage {
  direction: 'in' | 'out';
  text: string;
  createdAt: string;
}

/** A run as its detail shows it: its steps and its thread's last messages. */
export type RunDetail = ListedRun & { steps: RunStep[]; conversation: ConversationMessage[] };

/** Who a run ran for: the subscriber's name, or the test owner of a test run. */
export function ownerLabel(run: ListedRun): string {
  if (run.subscriberName) return run.subscriberName;
  return run.mode === 'test' ? `${run.ownerId.replace(/^test:/, '')} (test)` : run.ownerId;
}
