import type { BranchTaken, RunStep } from '../../../api/api-types.ts';
import type { FlowCondition } from './flow-graph.ts';

/** A run to draw on the flow: how it ended and the steps it ran. */
export interface DrawnRun {
  status: string;
  steps: RunStep[];
}

/** What a run did at one step: ran it (succeeded or failed), or ended before it. */
export type StepRunState = 'succeeded' | 'failed' | 'not-reached' | 'running';

/** The words for a step's state, on its node. */
export const STEP_RUN_LABELS: Record<StepRunState, string> = {
  succeeded: 'succeeded',
  failed: 'failed',
  'not-reached': 'not reached',
  running: 'running',
};

/**
 * The run's step at a flow position and what it did there: a position the run has no step
 * for was not reached (or not yet, while the run is running).
 *
 * @example
 * stepRunState({ status: 'failed', steps: [{ position: 0, status: 'failed', … }] }, 1) // { state: 'not-reached' }
 */
export function stepRunState(run: DrawnRun, position: number): { state: StepRunState; step?: RunStep } {
  const step = run.steps.find((each) => each.position === position);
  if (step) return { state: step.status, step };
  return { state: run.status === 'running' ? 'running' : 'not-reached' };
}

/** The way a run's step went at one of its conditions; undefined when it did not evaluate it. */
export function branchTaken(step: RunStep | undefined, condition: FlowCondition): BranchTaken['took'] | undefined {
  return step?.branches?.find((branch) => branch.input === condition.input && branch.index === condition.index)?.took;
}
