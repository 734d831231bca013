import type { E2eLoadPlan, E2eLoadResult } from './e2e-plan.ts';
import { runLoadProcess } from './fork-load.ts';

const LOAD_ENTRY = new URL('./e2e-load.ts', import.meta.url);

/** Runs one E2eLoadPlan in a fresh load process and resolves with its result. */
export function runE2eLoad(plan: E2eLoadPlan): Promise<E2eLoadResult> {
  return runLoadProcess<E2eLoadPlan, E2eLoadResult>(LOAD_ENTRY, plan);
}
