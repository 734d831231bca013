/**
 * Host side: serves the host services to one worker over the port it opened at start. Replies
 * are data, so a failing service reaches the plugin with its `code` (Comlink's own error
 * handler would drop it) and without the host's stack.
 */
import type { MessagePort } from 'node:worker_threads';
import type { EgressRequest, EgressResponse, HostServices } from '@bot-ai/api';
import { expose } from 'comlink';
import type { HostBridge, LogLevel, SandboxReply } from './protocol.ts';
import { serializeError, type SerializedError } from './sandbox-error.ts';

/** The logger calls the sandbox makes; a pino logger fits. */
export type SandboxLogger = Record<LogLevel, (fields: Record<string, unknown>, message: string) => void>;

const LOG_LEVELS: ReadonlySet<string> = new Set<LogLevel>(['debug', 'info', 'warn', 'error']);

/** `fields` are added to every log line of this worker (e.g. the channel name). */
export function exposeHostBridge(port: MessagePort, services: HostServices, logger: SandboxLogger, fields: Record<string, unknown>): void {
  const bridge: HostBridge = {
    getAttachmentPublicUrl: (sourceId, attachmentRef) => reply(() => services.getAttachmentPublicUrl(String(sourceId), String(attachmentRef))),
    fetch: (request) => reply(() => performEgress(services, request)),
    log(level, message, extra) {
      const known = LOG_LEVELS.has(level) ? level : 'info';
      logger[known]({ ...extra, ...fields }, String(message));
    },
  };
  expose(bridge, port);
  // The port must not keep the host process alive; a worker's end closes when it exits.
  port.unref();
}

/** A host without an egress service refuses every request, with a code the SDK passes on. */
function performEgress(services: HostServices, request: EgressRequest): Promise<EgressResponse> {
  if (!services.fetch) {
    return Promise.reject(Object.assign(new Error('This host performs no egress for its channels'), { code: 'BOT_ERR_EGRESS_UNAVAILABLE' }));
  }
  return services.fetch(request);
}

async function reply<T>(run: () => Promise<T>): Promise<SandboxReply<T>> {
  try {
    return { ok: true, value: await run() };
  } catch (error) {
    return { ok: false, error: withoutStacks(serializeError(error)) };
  }
}

/** The causes too: an egress failure wraps the HTTP client's errors, whose stacks are the host's. */
function withoutStacks({ stack: _stack, cause, ...plain }: SerializedError): SerializedError {
  return cause ? { ...plain, cause: withoutStacks(cause) } : plain;
}
