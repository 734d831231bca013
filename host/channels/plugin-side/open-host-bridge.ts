/**
 * Worker side: opens the Comlink channel to the host's services and installs them for the
 * plugin (`channelAttachmentService`, the SDK's `fetch`), and sends the plugin's console output
 * to the host's logger. Comlink alone waits forever for an answer, so every call has a time limit.
 */
import { MessageChannel, parentPort } from 'node:worker_threads';
import { installHostServices, type EgressRequest, type EgressResponse } from '@bot-ai/api';
import { transfer, wrap } from 'comlink';
import type { BridgeOpenMessage, HostBridge, LogLevel, SandboxReply } from './protocol.ts';
import { deserializeError, SandboxError } from './sandbox-error.ts';
import { withTimeout } from './with-timeout.ts';

const CONSOLE_LEVELS = { debug: 'debug', info: 'info', log: 'info', warn: 'warn', error: 'error' } as const satisfies Record<string, LogLevel>;

/** The host bridge as its caller sees it: every call answers asynchronously. */
export interface HostBridgeClient {
  getAttachmentPublicUrl(sourceId: string, attachmentRef: string): Promise<SandboxReply<string>>;
  fetch(request: EgressRequest): Promise<SandboxReply<EgressResponse>>;
  log(level: LogLevel, message: string, fields: Record<string, unknown>): Promise<void>;
}

/** Called once per worker, before the plugin is imported. */
export function openHostBridge(hostCallTimeoutMs: number): void {
  const { port1, port2 } = new MessageChannel();
  const open: BridgeOpenMessage = { type: 'sandbox.bridge.open', port: port2 };
  parentPort!.postMessage(open, [port2]);
  installHostBridge(wrap<HostBridge>(port1) as unknown as HostBridgeClient, hostCallTimeoutMs);
}

/**
 * Installs the host's services for the plugin (the SDK's attachment URLs and `fetch`) on top of
 * `bridge`, each call bounded by `hostCallTimeoutMs`, and sends its console to the host's log.
 * A worker's bridge is a Comlink port; a runner's relays to the host over its own wire.
 */
export function installHostBridge(bridge: HostBridgeClient, hostCallTimeoutMs: number): void {
  installHostServices({
    getAttachmentPublicUrl: (sourceId, attachmentRef) =>
      callHost('getAttachmentPublicUrl', bridge.getAttachmentPublicUrl(sourceId, attachmentRef), hostCallTimeoutMs),
    fetch: (request) => callEgress(bridge, request, hostCallTimeoutMs),
  });
  forwardConsole(bridge);
}

async function callHost<T>(service: string, call: Promise<SandboxReply<T>>, ms: number): Promise<T> {
  const reply = await replyWithin(service, call, ms);
  if (reply.ok) return reply.value;
  throw new SandboxError('BOT_ERR_PLUGIN_HOST_SERVICE_FAILED', `The host service ${service}() failed: ${reply.error.message}`, {
    cause: deserializeError(reply.error),
  });
}

function replyWithin<T>(service: string, call: Promise<SandboxReply<T>>, ms: number): Promise<SandboxReply<T>> {
  return withTimeout(call, ms, () => new SandboxError('BOT_ERR_PLUGIN_HOST_SERVICE_TIMEOUT', `The host did not answer ${service}() within ${ms} ms`));
}

/**
 * `fetch` through the host. The request carries a deadline a little inside this worker's own
 * limit, so the host's coded answer (`BOT_ERR_EGRESS_TIMEOUT`) normally arrives before the
 * worker stops waiting. A refusal is rethrown as the host's error itself, so the plugin sees
 * `BOT_ERR_EGRESS_*` as the code of what `fetch` rejects with.
 */
async function callEgress(bridge: HostBridgeClient, request: EgressRequest, ms: number): Promise<EgressResponse> {
  const deadline = ms - Math.min(250, Math.floor(ms / 10));
  const timed = { ...request, timeoutMs: Math.max(1, Math.min(request.timeoutMs ?? deadline, deadline)) };
  const transfers = request.body && ownsItsBuffer(request.body) ? [request.body.buffer as ArrayBuffer] : [];
  const reply = await replyWithin('fetch', bridge.fetch(transfer(timed, transfers)), ms);
  if (reply.ok) return reply.value;
  throw deserializeError(reply.error);
}

/**
 * A body that is its buffer's only view (the SDK's own copy) is moved to the host's thread, not
 * copied; a view into a shared buffer (Node's Buffer pool) must stay, or the pool goes with it.
 */
function ownsItsBuffer(view: Uint8Array): boolean {
  return view.buffer instanceof ArrayBuffer && view.byteOffset === 0 && view.byteLength === view.buffer.byteLength;
}

/** Fire and forget: a plugin's log line must never wait for, or fail because of, the host. */
function forwardConsole(bridge: HostBridgeClient): void {
  for (const [method, level] of Object.entries(CONSOLE_LEVELS)) {
    (console as unknown as Record<string, unknown>)[method] = (...args: unknown[]) => {
      bridge.log(level, formatLogLine(args), {}).catch(() => {});
    };
  }
}

/**
 * `util.format`, loaded at the first log line: `node:util` pulls in modules of its own (about
 * 0.7 MB resident in an idle runner, which may never log). Synchronous, so lines keep their order.
 */
function formatLogLine(args: unknown[]): string {
  return process.getBuiltinModule('node:util').format(...args);
}
