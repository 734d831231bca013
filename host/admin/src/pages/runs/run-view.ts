import type { Run, RunStep, StepError } from '../../api/api-types.ts';

/** A run's or step's error as the runs API gives it: one plain sentence, and the technical chain. */
export interface ExplainedError extends StepError {
  /** What failed, in which step, and what to do. */
  summary: string;
  /** The technical messages, outermost first, each said once. */
  chain: string[];
}

/** A run as the runs API lists it: its subscriber's display name (null for a test run) and its explained error. */
export type ListedRun = Omit<Run, 'error'> & { subscriberName: string | null; error: ExplainedError | null };

/** A step as the run's detail gives it. */
export type RunDetailStep = Omit<RunStep, 'error'> & { error: ExplainedError | null };

/** One message of a run's thread. */
export interface ConversationMessage {
  direction: 'in' | 'out';
  text: string;
  createdAt: string;
}

/** A run as its detail shows it: its steps and its thread's last messages. */
export type RunDetail = ListedRun & { steps: RunDetailStep[]; conversation: ConversationMessage[] };

/** Who a run ran for: the subscriber's name, or the test owner of a test run. */
export function ownerLabel(run: ListedRun): string {
  if (run.subscriberName) return run.subscriberName;
  return run.mode === 'test' ? `${run.ownerId.replace(/^test:/, '')} (test)` : run.ownerId;
}

/** The subscriber page of a live run's owner; a test run has none. */
export function subscriberPath(run: ListedRun): string | undefined {
  return run.mode === 'live' && run.subscriberName !== null ? `/subscribers/${run.ownerId}` : undefined;
}
