import { SandboxError } from '../plugin-side/sandbox-error.ts';

/** What a channel's runner or thread pool knows when a call arrives. */
export interface Admission {
  /** Label in errors (the channel's file as discovered). */
  label: string;
  closed: boolean;
  /** Why it cannot take calls now although it is open (a runner restarting); none when it can. */
  unavailable?: () => SandboxError;
  /** The calls already waiting (or in flight), against `maxQueue`. */
  queued: number;
  maxQueue: number;
  /** How a full queue is put in the error (`the task queue is full`). */
  full: string;
}

/**
 * Refuses a call the channel cannot take, with a code that tells the outbox the platform surely
 * did not get it: `BOT_ERR_PLUGIN_SANDBOX_CLOSED` once closing, the runner's own error while it is
 * down, `BOT_ERR_PLUGIN_QUEUE_FULL` at `maxQueue` calls.
 * @example admitCall({ label, closed: false, queued: pool.queueSize, maxQueue: 100, full: 'the task queue is full' });
 */
export function admitCall(admission: Admission): void {
  const { label } = admission;
  if (admission.closed) throw new SandboxError('BOT_ERR_PLUGIN_SANDBOX_CLOSED', `${label}: the sandbox is closed`);
  if (admission.unavailable) throw admission.unavailable();
  if (admission.queued >= admission.maxQueue) throw new SandboxError('BOT_ERR_PLUGIN_QUEUE_FULL', `${label}: ${admission.full}`);
}
