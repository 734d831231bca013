import { Logger as WorkerLogger } from 'graphile-worker';
import type { Logger } from 'pino';

/**
 * graphile-worker's logs through ours: its `warning` is pino's `warn`; info and below at debug,
 * they are chatty. A failed job is logged at debug too: the processor has already said so in one
 * line with its code and cause, and graphile-worker's line carries the whole job row and a stack.
 */
export function jobEngineLogger(logger: Pick<Logger, 'error' | 'warn' | 'debug'>): WorkerLogger {
  return new WorkerLogger((scope) => (level, message, meta) => {
    const fields = { component: 'jobs', ...scope, ...meta };
    if ((meta as { failure?: unknown } | undefined)?.failure === true) logger.debug(fields, message);
    else if (level === 'error') logger.error(fields, message);
    else if (level === 'warning') logger.warn(fields, message);
    else logger.debug(fields, message);
  });
}
