/**
 * Everything that crosses between the host and a channel's runner process (the sandboxed
 * process running that channel's plugin), as frames on the runner's fd 3 (runner-frames.ts).
 * The runner is treated as hostile: the host checks the shape of every message it receives
 * (see isRunnerMessage).
 *
 * Loaded inside the runner by Node's type stripping: erasable TypeScript only.
 */
import type { LogLevel, SandboxReply, SandboxRequest } from '../plugin-side/protocol.ts';
import type { SerializedError } from '../plugin-side/sandbox-error.ts';

/** The limits the runner applies to the plugin's calls. */
export interface RunnerPoolOptions {
  /** Time limit of each call; a call the plugin keeps running past it is answered as timed out. */
  callTimeoutMs: number;
  /** Time limit of the plugin's import and checks (enforced by the host, which kills the runner). */
  startTimeoutMs: number;
  /** Time limit of each host service call (attachment URLs, egress); default half of `callTimeoutMs`. */
  hostCallTimeoutMs?: number;
  /** Heap limit of the runner (its only thread runs the plugin). */
  maxHeapMb: number;
  /** Calls in flight at once; more are refused with `BOT_ERR_PLUGIN_QUEUE_FULL`. */
  maxQueue: number;
}

/** One call into the channel: the sandbox's own task, as a Piscina worker would get it. */
export type RunnerCall = SandboxRequest;

/** Host → runner. */
export type HostToRunnerMessage =
  | { type: 'runner.init'; fileUrl: string; label: string; limits: RunnerPoolOptions }
  | { type: 'runner.call'; id: number; call: RunnerCall }
  | { type: 'runner.service.reply'; id: number; reply: SandboxReply<unknown> }
  | { type: 'runner.close' };

/** Runner → host. */
export type RunnerToHostMessage =
  | { type: 'runner.ready' }
  | { type: 'runner.init.failed'; error: SerializedError }
  | { type: 'runner.reply'; id: number; reply: SandboxReply<unknown> }
  /** A send reached the plugin: failing after this, it may have reached the platform. */
  | { type: 'runner.send.started'; id: number }
  /**
   * A host service (attachment URLs, egress) called by plugin code, relayed by name. `call` is the
   * id of the `runner.call` whose async context made the request, absent outside any call. The host
   * believes it only while that call is in flight on this runner, and takes the source the request
   * acts for from its own record of that call, never from `args`.
   */
  | { type: 'runner.service'; id: number; call?: number; method: string; args: unknown[] }
  | { type: 'runner.log'; level: LogLevel; message: string; fields: Record<string, unknown> }
  /** The last message of a runner asked to close: everything before it has been sent. */
  | { type: 'runner.closed' };

const LOG_LEVELS: ReadonlySet<unknown> = new Set(['debug', 'info', 'warn', 'error']);

/** A runner's message has the shape its type promises; anything else is ignored (and logged). */
export function isRunnerMessage(value: unknown): value is RunnerToHostMessage {
  if (typeof value !== 'object' || value === null) return false;
  const message = value as Record<string, unknown>;
  switch (message.type) {
    case 'runner.ready':
    case 'runner.closed':
      return true;
    case 'runner.init.failed':
      return isPlainError(message.error);
    case 'runner.reply':
      return isId(message.id) && isReply(message.reply);
    case 'runner.send.started':
      return isId(message.id);
    case 'runner.service':
      return isId(message.id) && (message.call === undefined || isId(message.call)) && typeof message.method === 'string' && Array.isArray(message.args);
    case 'runner.log':
      return LOG_LEVELS.has(message.level) && typeof message.message === 'string' && isRecord(message.fields);
    default:
      return false;
  }
}

function isId(value: unknown): value is number {
  return Number.isSafeInteger(value);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isPlainError(value: unknown): value is SerializedError {
  return isRecord(value) && typeof value.name === 'string' && typeof value.message === 'string';
}

function isReply(value: unknown): value is SandboxReply<unknown> {
  if (!isRecord(value)) return false;
  return value.ok === true ? 'value' in value : value.ok === false && isPlainError(value.error);
}
