import { fork } from 'node:child_process';
import type { E2eLoadPlan, E2eLoadResult } from './e2e-plan.ts';

const LOAD_ENTRY = new URL('./e2e-load.ts', import.meta.url);

/**
 * Runs one E2eLoadPlan in a fresh load process and resolves with its result. No loader flags:
 * Node strips the types itself, so the process starts fast and weighs little.
 */
export function runE2eLoad(plan: E2eLoadPlan): Promise<E2eLoadResult> {
  const child = fork(LOAD_ENTRY, [], { execArgv: [], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const { promise, resolve, reject } = Promise.withResolvers<E2eLoadResult>();
  child.once('message', (result) => resolve(result as E2eLoadResult));
  child.once('error', reject);
  child.once('exit', (code) => reject(new Error(`the e2e load process exited with ${code} before reporting`)));
  child.send(plan);
  return promise;
}
