import type { LoadPlan, LoadResult } from './ingest-load-plan.ts';
import { runLoadProcess } from './fork-load.ts';

const LOAD_ENTRY = new URL('./ingest-load.ts', import.meta.url);

/** Runs one LoadPlan in a fresh load process and resolves with its result. */
export function runIngestLoad(plan: LoadPlan): Promise<LoadResult> {
  return runLoadProcess<LoadPlan, LoadResult>(LOAD_ENTRY, plan);
}
