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

/** A load process started by startLoadUntilStopped: it runs its plan until `stop()`. */
export interface RunningLoad<Result> {
  /** Tells it to stop sending; resolves with its result once every request it sent is answered. */
  stop(): Promise<Result>;
}

/**
 * Starts a load process (`entry`, which calls runPlanUntilStopped) on `plan`; resolves once it
 * is sending, so a change can be made under load and the load stopped a while after it.
 */
export async function startLoadUntilStopped<Plan, Result>(entry: URL, plan: Plan): Promise<RunningLoad<Result>> {
  const child = fork(entry, [], { execArgv: [], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const ended = Promise.withResolvers<never>();
  child.once('error', ended.reject);
  child.once('exit', (code) => ended.reject(new Error(`the load process ${entry.pathname} exited with ${code} before reporting`)));
  const next = () => Promise.race([new Promise((resolve) => child.once('message', resolve)), ended.promise]);
  child.send(plan as object);
  await next();
  return {
    async stop() {
      child.send({ stop: true });
      return (await next()) as Result;
    },
  };
}

/**
 * The load process's side of startLoadUntilStopped: starts the one plan sent over IPC, says so,
 * and on the next message stops it and sends back its result. A failure is printed and exits with 1.
 */
export function runPlanUntilStopped<Plan, Result>(label: string, start: (plan: Plan) => RunningLoad<Result>): void {
  process.once('message', (plan: Plan) => {
    const running = start(plan);
    process.send!({ started: true });
    process.once('message', () => {
      running.stop().then(
        (result) => process.send!(result, () => process.disconnect?.()),
        (error: unknown) => {
          console.error(`${label} load failed:`, error);
          process.exit(1);
        },
      );
    });
  });
}
