import type { BranchTaken } from '../expressions/branch-log.ts';
import type { StepError } from './describe-step-error.ts';

/** One step of a run as it is recorded: what ran, with what, and how it ended. */
export interface StepRecord {
  position: number;
  task: string;
  action: string;
  status: 'succeeded' | 'failed';
  /** Taken from an earlier attempt of the same event instead of run again. */
  reused: boolean;
  inputs: Record<string, unknown> | null;
  output: unknown;
  error: StepError | null;
  /** The way each conditional of the inputs went (none for a reused step). */
  branches?: BranchTaken[];
  startedAt: string;
  finishedAt: string;
}
