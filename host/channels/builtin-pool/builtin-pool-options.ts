import type { HostServices } from '@bot-ai/api';
import type { FrameDelivery } from '../calls/frame-delivery.ts';
import type { SandboxLogger } from '../calls/sandbox-logger.ts';

/** How a built-in channel's thread pool runs; the host reads the limits from its `BOT_SANDBOX_*` configuration. */
export interface BuiltinChannelPoolOptions {
  /** Path or file URL of the `*.channel.js` file. */
  file: string;
  /** Label in logs and error messages until the channel has described itself; default the file. */
  name?: string;
  /** Time limit of each call, queueing included; past it the busy worker is terminated. */
  callTimeoutMs: number;
  /** Time limit for the first worker to import and check the plugin; default 10 000 ms. */
  startTimeoutMs?: number;
  /** Time limit of each worker → host service call; default half of `callTimeoutMs`. */
  hostCallTimeoutMs?: number;
  /** Heap limit of each worker (V8 old generation); past it the worker dies, not the host. */
  maxHeapMb: number;
  /** An idle worker beyond the first is stopped after this long. */
  idleTimeoutMs: number;
  /** Calls that may wait for a free worker; more are refused with `BOT_ERR_PLUGIN_QUEUE_FULL`. */
  maxQueue: number;
  maxThreads: number;
  hostServices: HostServices;
  logger: SandboxLogger;
  /** Where a WebSocket channel's encoded replies go (the host owns the sockets); without it they are refused. */
  frameDelivery?: FrameDelivery;
}

const POSITIVE_INTEGERS = ['callTimeoutMs', 'maxHeapMb', 'maxQueue', 'maxThreads'] as const;
const OPTIONAL_POSITIVE_INTEGERS = ['startTimeoutMs', 'hostCallTimeoutMs'] as const;

/** Guard clauses naming the option, so a configuration mistake is found at start, not mid-call. */
export function checkBuiltinPoolOptions(options: BuiltinChannelPoolOptions): void {
  if (typeof options.file !== 'string' || options.file === '') throw new TypeError('options.file must be a non-empty string');
  for (const key of POSITIVE_INTEGERS) {
    if (!Number.isInteger(options[key]) || options[key] < 1) throw new TypeError(`options.${key} must be a positive integer`);
  }
  if (!Number.isInteger(options.idleTimeoutMs) || options.idleTimeoutMs < 0) {
    throw new TypeError('options.idleTimeoutMs must be a non-negative integer');
  }
  for (const key of OPTIONAL_POSITIVE_INTEGERS) {
    const value = options[key];
    if (value !== undefined && (!Number.isInteger(value) || value < 1)) throw new TypeError(`options.${key} must be a positive integer`);
  }
  if (typeof options.hostServices?.getAttachmentPublicUrl !== 'function') {
    throw new TypeError('options.hostServices must implement getAttachmentPublicUrl');
  }
}
