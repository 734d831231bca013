import { messageOf, SandboxError } from '../plugin-side/sandbox-error.ts';

/** What is known about a failed Piscina task when its promise rejects. */
export interface PoolFailure {
  /** Our own time limit fired (Piscina then terminates the busy worker). */
  timedOut: boolean;
  channel: string;
  task: string;
  timeoutMs: number;
}

// Piscina's queue errors carry no code, only these messages (piscina/src/errors.ts).
const QUEUE_MESSAGES = new Set(['Task queue is at limit', 'No task queue available and all Workers are busy']);

/**
 * Host side: turns a rejected Piscina task into a SandboxError. Plugin errors never get here (the
 * worker answers them as data), so anything else means the worker died: out of memory,
 * `process.exit`, an uncaught error, or an answer that could not be cloned.
 */
export function mapPoolFailure(error: unknown, failure: PoolFailure): SandboxError {
  const { channel, task } = failure;
  if (failure.timedOut) {
    return new SandboxError(
      'BOT_ERR_PLUGIN_CALL_TIMEOUT',
      `${channel}: ${task} did not finish within ${failure.timeoutMs} ms; its worker was stopped`,
      { cause: error },
    );
  }
  if (QUEUE_MESSAGES.has(messageOf(error))) {
    return new SandboxError('BOT_ERR_PLUGIN_QUEUE_FULL', `${channel}: the task queue is full`, { cause: error });
  }
  return new SandboxError('BOT_ERR_PLUGIN_WORKER_CRASHED', `${channel}: the worker died during ${task}: ${messageOf(error)}`, { cause: error });
}
