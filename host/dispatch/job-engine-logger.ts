import { Logger as WorkerLogger } from 'graphile-worker';
import type { Logger } from 'pino';

/** graphile-worker's logs through ours: its `warning` is pino's `warn`; info and below at debug, they are chatty. */
export function jobEngineLogger(logger: Pick<Logger, 'error' | 'warn' | 'debug'>): WorkerLogger {
  return new WorkerLogger((scope) => (level, message, meta) => {
    const fields = { component: 'jobs', ...scope, ...meta };
    if (level === 'error') logger.error(fields, message);
    else if (level === 'warning') logger.warn(fields, message);
    else logger.debug(fields, message);
  });
}
