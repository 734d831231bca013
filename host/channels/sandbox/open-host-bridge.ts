/**
 * Worker side: opens the Comlink channel to the host's services and installs them for the
 * plugin (`channelAttachmentService`), and sends the plugin's console output to the host's
 * logger. Comlink alone waits forever for an answer, so every call has a time limit.
 */
import { format } from 'node:util';
import { MessageChannel, parentPort } from 'node:worker_threads';
import { installHostServices } from '@bot-ai/api';
import { wrap, type Remote } from 'comlink';
import type { BridgeOpenMessage, HostBridge, LogLevel, SandboxReply } from './protocol.ts';
import { deserializeError, SandboxError } from './sandbox-error.ts';
import { withTimeout } from './with-timeout.ts';

const CONSOLE_LEVELS = { debug: 'debug', info: 'info', log: 'info', warn: 'warn', error: 'error' } as const satisfies Record<string, LogLevel>;

/** Called once per worker, before the plugin is imported. */
export function openHostBridge(hostCallTimeoutMs: number): void {
  const { port1, port2 } = new MessageChannel();
  const open: BridgeOpenMessage = { type: 'sandbox.bridge.open', port: port2 };
  parentPort!.postMessage(open, [port2]);
  const bridge = wrap<HostBridge>(port1);
  installHostServices({
    getAttachmentPublicUrl: (sourceId, attachmentRef) =>
      callHost('getAttachmentPublicUrl', bridge.getAttachmentPublicUrl(sourceId, attachmentRef), hostCallTimeoutMs),
  });
  forwardConsole(bridge);
}

async function callHost<T>(service: string, call: Promise<SandboxReply<T>>, ms: number): Promise<T> {
  const reply = await withTimeout(
    call,
    ms,
    () => new SandboxError('BOT_ERR_PLUGIN_HOST_SERVICE_TIMEOUT', `The host did not answer ${service}() within ${ms} ms`),
  );
  if (reply.ok) return reply.value;
  throw new SandboxError('BOT_ERR_PLUGIN_HOST_SERVICE_FAILED', `The host service ${service}() failed: ${reply.error.message}`, {
    cause: deserializeError(reply.error),
  });
}

/** Fire and forget: a plugin's log line must never wait for, or fail because of, the host. */
function forwardConsole(bridge: Remote<HostBridge>): void {
  for (const [method, level] of Object.entries(CONSOLE_LEVELS)) {
    (console as unknown as Record<string, unknown>)[method] = (...args: unknown[]) => {
      bridge.log(level, format(...args), {}).catch(() => {});
    };
  }
}
