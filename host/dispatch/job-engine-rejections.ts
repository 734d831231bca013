import type { Logger } from 'pino';

/** Where graphile-worker's code lives, as its frames appear in a stack. */
const JOB_ENGINE_FRAME = /[\\/]node_modules[\\/]graphile-worker[\\/]/;

/**
 * Whether an unhandled rejection is graphile-worker's own: when its worker pool dies with the
 * database (a PostgreSQL restart under load), its local queue rejects promises nobody awaits,
 * for instance "Error occurred whilst returning jobs from local queue to database queue". The
 * error was made in graphile-worker's code: its top frame is there (async frames below it do not
 * count, since our own task code runs under graphile-worker's). An AggregateError made there
 * counts too.
 */
export function isJobEngineRejection(reason: unknown): boolean {
  if (!(reason instanceof Error)) return false;
  const topFrame = (reason.stack ?? '').split('\n').find((line) => line.trimStart().startsWith('at '));
  return topFrame !== undefined && JOB_ENGINE_FRAME.test(topFrame);
}

/**
 * Node ends the process on an unhandled rejection, and graphile-worker leaves some behind when
 * its pool dies with the database. Those are logged, not fatal: JobEngine starts a new runner and
 * frees the jobs the old one held (the jobs it failed to return among them). Every other
 * unhandled rejection stays fatal, as Node would have it. Returns the handler, for tests.
 */
export function containJobEngineRejections(logger: Pick<Logger, 'error'>): (reason: unknown) => void {
  const handler = (reason: unknown) => {
    if (!isJobEngineRejection(reason)) throw reason;
    logger.error({ err: reason }, 'the job engine left a failure unhandled (its runner is started again)');
  };
  process.on('unhandledRejection', handler);
  return handler;
}
