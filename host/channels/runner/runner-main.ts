/**
 * The entry of a channel's runner: the process the host starts (inside bubblewrap when it can)
 * for one channel. The plugin runs here, on this one thread: the process is the unit of
 * isolation and of recovery. No worker threads, on purpose: Node's permission model needs
 * `--allow-worker` for them, and with it plugin code can start a Worker of its own with
 * `execArgv: []`, which runs outside the model (nodejs/node#62222). A call that never returns
 * control is ended by the host, which kills and restarts the runner.
 *
 * It talks to the host only over fd 3 (runner-frames.ts): calls in, answers out, and the host
 * services the plugin asks for (attachment URLs, egress, logging) relayed back by name.
 *
 * Runs as a bundle (runner-bundle.ts), or from source with Node's type stripping: erasable
 * TypeScript only. It imports nothing of the host but the sandbox and runner folders.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import net from 'node:net';
import type { EgressRequest, EgressResponse } from '@bot-ai/api';
import { loadChannelHandler, type LoadedHandler } from '../plugin-side/load-channel-handler.ts';
import { installHostBridge, type HostBridgeClient } from '../plugin-side/open-host-bridge.ts';
import type { LogLevel, SandboxReply } from '../plugin-side/protocol.ts';
import { runTask } from '../plugin-side/run-task.ts';
import { SandboxError, serializeError } from '../plugin-side/sandbox-error.ts';
import { withTimeout } from '../plugin-side/with-timeout.ts';
import { encodeFrame, FrameReader, FrameWriter } from './runner-frames.ts';
import type { HostToRunnerMessage, RunnerCall, RunnerPoolOptions, RunnerToHostMessage } from './runner-protocol.ts';
import { lockV8Flags } from './lock-v8-flags.ts';
import { refuseCodeCaches } from './refuse-code-caches.ts';
import { COMPILERS_AWAKE_FLAGS } from './runner-tiering.ts';

/** What the host may send in one frame: a webhook body (1 MiB by default) as base64, and room. */
const MAX_HOST_FRAME_BYTES = 64 * 1024 * 1024;

// Spawned with an empty environment, but bubblewrap sets PWD: the plugin sees nothing at all.
for (const name of Object.keys(process.env)) delete process.env[name];

const setV8Flags = lockV8Flags();
refuseCodeCaches();

const wire = new net.Socket({ fd: 3, readable: true, writable: true });
const reader = new FrameReader(MAX_HOST_FRAME_BYTES);
const writer = new FrameWriter(wire);
let loading: Promise<LoadedHandler> | undefined;
let limits: RunnerPoolOptions | undefined;
let nextServiceId = 1;
const serviceReplies = new Map<number, (reply: SandboxReply<unknown>) => void>();
/**
 * The id of the host's call whose execution this code runs in, however deep (timers and promises
 * started during it included). Each service request names it, so the host can act for the source
 * of that call, which it knows itself; code run at import, or after its call has ended, names a
 * call the host no longer has in flight, and gets no source's rules. Module-private, so plugin
 * code holds no handle on it; and whatever id reaches the host (plugin code can write frames of
 * its own), the host trusts it only while that call is in flight on this runner.
 */
const currentCall = new AsyncLocalStorage<number>();

function post(message: RunnerToHostMessage): void {
  if (!wire.destroyed) writer.write(message);
}

/** The host's services, each a request on the wire answered by a `runner.service.reply`. */
const bridge: HostBridgeClient = {
  getAttachmentPublicUrl: (sourceId, attachmentRef) => callService('getAttachmentPublicUrl', [sourceId, attachmentRef]) as Promise<SandboxReply<string>>,
  fetch: (request: EgressRequest) => callService('fetch', [request]) as Promise<SandboxReply<EgressResponse>>,
  log: async (level: LogLevel, message: string, fields: Record<string, unknown>) => post({ type: 'runner.log', level, message, fields }),
};

function callService(method: string, args: unknown[]): Promise<SandboxReply<unknown>> {
  const id = nextServiceId++;
  const call = currentCall.getStore();
  const { promise, resolve } = Promise.withResolvers<SandboxReply<unknown>>();
  serviceReplies.set(id, resolve);
  post({ type: 'runner.service', id, ...(call === undefined ? {} : { call }), method, args });
  // installHostBridge bounds the wait; a reply that comes after it finds nothing and is dropped.
  return promise.finally(() => serviceReplies.delete(id));
}

function init(message: Extract<HostToRunnerMessage, { type: 'runner.init' }>): void {
  limits = message.limits;
  installHostBridge(bridge, limits.hostCallTimeoutMs ?? Math.ceil(limits.callTimeoutMs / 2));
  loading = loadChannelHandler(message.fileUrl);
  // A failed check is the answer to every call (describe reports it); either way the runner is up.
  const ready = () => {
    setV8Flags(COMPILERS_AWAKE_FLAGS);
    post({ type: 'runner.ready' });
  };
  loading.then(ready, ready);
}

async function answer(id: number, call: RunnerCall): Promise<void> {
  let reply: SandboxReply<unknown>;
  if (!loading || !limits) {
    reply = { ok: false, error: serializeError(new SandboxError('BOT_ERR_PLUGIN_RUNNER_DOWN', 'The runner got a call before its init')) };
  } else {
    const timeoutMs = limits.callTimeoutMs;
    const timedOut = () => new SandboxError('BOT_ERR_PLUGIN_CALL_TIMEOUT', `${call.type} did not finish within ${timeoutMs} ms`);
    // runTask never rejects; only the time limit does.
    reply = await withTimeout(
      // Sent at once, not at the turn's end: the host must know before the platform may have the reply.
      runTask(loading, call, () => {
        post({ type: 'runner.send.started', id });
        writer.flush();
      }),
      timeoutMs,
      timedOut,
    ).catch((error: unknown) => ({ ok: false as const, error: serializeError(error) }));
  }
  post({ type: 'runner.reply', id, reply });
}

function receive(message: HostToRunnerMessage): void {
  switch (message.type) {
    case 'runner.init':
      return init(message);
    case 'runner.call':
      return void currentCall.run(message.id, () => answer(message.id, message.call));
    case 'runner.service.reply':
      return serviceReplies.get(message.id)?.(message.reply);
    case 'runner.close':
      // End only once the frames before it are written: the answers of the calls drained.
      return void wire.end(encodeFrame({ type: 'runner.closed' } satisfies RunnerToHostMessage), () => process.exit(0));
  }
}

wire.on('data', (chunk: Buffer) => {
  for (const message of reader.push(chunk)) receive(message as HostToRunnerMessage);
});
// The host is this process's only reason to live: without it, stop at once.
wire.on('close', () => process.exit(0));
wire.on('error', () => process.exit(0));
