import { SandboxError } from '../plugin-side/sandbox-error.ts';

/**
 * `BOT_ERR_PLUGIN_SEND_NOT_STARTED`: the send failed before the plugin was called (it waited in a
 * queue, or its runner ended first), so the platform surely did not get it and the outbox may
 * send it again. `why` is added in brackets; `cause` is kept when given.
 * @example throw sendNotStarted(label, 'the runner was killed');
 */
export function sendNotStarted(label: string, why?: string, cause?: unknown): SandboxError {
  const message = `${label}: the send never reached the plugin${why === undefined ? '' : ` (${why})`}`;
  return cause === undefined ? new SandboxError('BOT_ERR_PLUGIN_SEND_NOT_STARTED', message) : new SandboxError('BOT_ERR_PLUGIN_SEND_NOT_STARTED', message, { cause });
}
