/**
 * The Piscina worker entry of a channel sandbox. At start it opens the host bridge, then imports,
 * checks and constructs the plugin once; each task is then one call into the handler. Every
 * answer is a SandboxReply: errors travel as data so their `code` survives.
 *
 * Runs without tsx (Node's own type stripping): this file and what it imports must use erasable
 * TypeScript only — no enums, namespaces or constructor parameter properties.
 */
import { parentPort, threadId, workerData } from 'node:worker_threads';
import { runForSource, type HttpChannelHandler, type WebSocketChannelHandler } from '@bot-ai/api';
import { sendTask, subscriberDataTask } from './event-tasks.ts';
import { encodeFrameTask, receiveFrameTask } from './frame-tasks.ts';
import { loadChannelHandler, type LoadedHandler } from './load-channel-handler.ts';
import { openHostBridge } from './open-host-bridge.ts';
import type { SandboxReply, SandboxRequest, SandboxRequestType, SandboxWorkerData, TaskStartedMessage, WorkerLoadedMessage } from './protocol.ts';
import { SandboxError, serializeError } from './sandbox-error.ts';
import { receiveWebhookTask, verifyWebhookTask } from './webhook-tasks.ts';

const { fileUrl, hostCallTimeoutMs } = workerData as SandboxWorkerData;
openHostBridge(hostCallTimeoutMs);
const loading = loadChannelHandler(fileUrl);
// A failed load is the answer to every task (left unhandled, it would kill the worker instead);
// either way the host learns the worker is ready.
const loaded: WorkerLoadedMessage = { type: 'sandbox.worker.loaded', threadId };
loading.then(
  () => parentPort!.postMessage(loaded),
  () => parentPort!.postMessage(loaded),
);

/** Runs one task; never throws, so Piscina only ever sees a crash when the worker really dies. */
export default async function runSandboxTask(request: SandboxRequest): Promise<SandboxReply<unknown>> {
  try {
    const loaded = await loading;
    // The plugin's `fetch` reads the source it serves from here: egress rules are per source.
    const sourceId = 'source' in request ? request.source.id : undefined;
    return { ok: true, value: await runForSource(sourceId, () => dispatch(loaded, request)) };
  } catch (error) {
    return { ok: false, error: serializeError(error) };
  }
}

function dispatch(loaded: LoadedHandler, request: SandboxRequest): Promise<unknown> {
  switch (request.type) {
    case 'channel.describe':
      return Promise.resolve(loaded.description);
    case 'channel.verifyWebhook':
      return verifyWebhookTask(httpHandler(loaded, request.type), request.request, request.source);
    case 'channel.receiveWebhook':
      return receiveWebhookTask(httpHandler(loaded, request.type), request.request, request.source);
    case 'channel.receiveFrame':
      return receiveFrameTask(websocketHandler(loaded, request.type), request.frame, request.source);
    case 'channel.send': {
      const started: TaskStartedMessage = { type: 'sandbox.task.started', taskId: request.taskId };
      parentPort!.postMessage(started);
      // A WebSocket channel only encodes: the host delivers the frame to the socket it owns.
      if (loaded.kind === 'websocket') return encodeFrameTask(loaded.handler, request.envelope);
      return sendTask(httpHandler(loaded, request.type), request.event, request.source, request.envelope, request.options);
    }
    case 'channel.subscriberData':
      return subscriberDataTask(loaded.handler, request.event, request.source);
    default:
      throw new SandboxError('BOT_ERR_PLUGIN_CALL_UNSUPPORTED', `Unknown sandbox task ${(request as { type?: unknown }).type}`);
  }
}

function websocketHandler(loaded: LoadedHandler, type: SandboxRequestType): WebSocketChannelHandler {
  if (loaded.kind === 'websocket') return loaded.handler;
  throw new SandboxError('BOT_ERR_PLUGIN_CALL_UNSUPPORTED', `${type} needs a WebSocket channel; "${loaded.description.name}" is an HTTP channel`);
}

function httpHandler(loaded: LoadedHandler, type: SandboxRequestType): HttpChannelHandler {
  if (loaded.kind === 'http') return loaded.handler;
  throw new SandboxError('BOT_ERR_PLUGIN_CALL_UNSUPPORTED', `${type} needs an HTTP channel; "${loaded.description.name}" is a WebSocket channel`);
}
