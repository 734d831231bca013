/**
 * Host side: serves the host services to one worker over the port it opened at start. Replies
 * are data, so a failing service reaches the plugin with its `code` (Comlink's own error
 * handler would drop it) and without the host's stack.
 */
import type { MessagePort } from 'node:worker_threads';
import type { EgressRequest, EgressResponse, HostServices } from '@bot-ai/api';
import { expose } from 'comlink';
import { AppError } from '../../errors/app-error.ts';
import type { HostBridge, LogLevel, SandboxReply } from '../plugin-side/protocol.ts';
import { serializeError, type SerializedError } from '../plugin-side/sandbox-error.ts';
import type { SandboxLogger } from '../calls/sandbox-logger.ts';
import type { ServedSources } from './served-sources.ts';


const LOG_LEVELS: ReadonlySet<string> = new Set<LogLevel>(['debug', 'info', 'warn', 'error']);

/**
 * `fields` are added to every log line of this worker (e.g. the channel name). A request acts
 * for a source only while one of the channel's calls in flight serves it (`served`): the worker
 * names the source, but the host does not take a name it has not sent.
 */
export function exposeHostBridge(port: MessagePort, services: HostServices, logger: SandboxLogger, fields: Record<string, unknown>, served: Pick<ServedSources, 'has'>): void {
  const bridge: HostBridge = {
    getAttachmentPublicUrl: (sourceId, attachmentRef) =>
      reply(() => {
        if (!served.has(sourceId)) throw new AppError('BOT_ERR_ATTACHMENT_SOURCE_FORBIDDEN', 'A download link can only be asked for a source a call in flight serves');
        return services.getAttachmentPublicUrl(sourceId, String(attachmentRef));
      }),
    fetch: (request) => reply(() => performEgress(services, servedOnly(request, served))),
    log(level, message, extra) {
      const known = LOG_LEVELS.has(level) ? level : 'info';
      logger[known]({ ...extra, ...fields }, String(message));
    },
  };
  expose(bridge, port);
  // The port must not keep the host process alive; a worker's end closes when it exits.
  port.unref();
}

/** The request with its source only if a call in flight serves it: else it gets the declared hosts only. */
function servedOnly(request: EgressRequest, served: Pick<ServedSources, 'has'>): EgressRequest {
  if (served.has(request.sourceId)) return request;
  const { sourceId: _unserved, ...rest } = request;
  return rest;
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
