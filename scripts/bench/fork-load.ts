import { fork } from 'node:child_process';

/**
 * Runs one plan in a fresh load process (`entry` takes it over IPC and sends back its result).
 * No loader flags: Node strips the types itself, so the process starts fast and weighs little.
 */
export function runLoadProcess<Plan, Result>(entry: URL, plan: Plan): Promise<Result> {
  const child = fork(entry, [], { execArgv: [], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const { promise, resolve, reject } = Promise.withResolvers<Result>();
  child.once('message', (result) => resolve(result as Result));
  child.once('error', reject);
  child.once('exit', (code) => reject(new Error(`the load process ${entry.pathname} exited with ${code} before reporting`)));
  child.send(plan as object);
  return promise;
}
