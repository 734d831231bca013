import { fork } from 'node:child_process';
import type { LoadPlan, LoadResult } from './ingest-load-plan.ts';

const LOAD_ENTRY = new URL('./ingest-load.ts', import.meta.url);

/**
 * Runs one LoadPlan in a fresh load process and resolves with its result. The process gets no
 * loader flags (Node strips the types itself), so it starts fast and weighs little.
 */
export function runLoadProcess(plan: LoadPlan): Promise<LoadResult> {
  const child = fork(LOAD_ENTRY, [], { execArgv: [], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const { promise, resolve, reject } = Promise.withResolvers<LoadResult>();
  child.once('message', (result) => resolve(result as LoadResult));
  child.once('error', reject);
  child.once('exit', (code) => reject(new Error(`the load process exited with ${code} before reporting`)));
  child.send(plan);
  return promise;
}
