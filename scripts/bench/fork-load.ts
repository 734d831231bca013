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

/**
 * The load process's side of runLoadProcess: takes the one plan sent over IPC, runs it, sends the
 * result back and disconnects. A failure is printed and exits with 1, which the parent reports.
 */
export function answerOnePlan<Plan, Result>(label: string, run: (plan: Plan) => Promise<Result>): void {
  process.once('message', (plan: Plan) => {
    run(plan).then(
      (result) => process.send!(result, () => process.disconnect?.()),
      (error: unknown) => {
        console.error(`${label} load failed:`, error);
        process.exit(1);
      },
    );
  });
}
