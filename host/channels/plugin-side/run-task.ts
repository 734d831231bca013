/**
 * One call into a loaded plugin, wherever it runs: a Piscina worker of the host (built-in
 * channels) or a channel's runner process (every package and local channel).
 *
 * Loaded without tsx (Node's own type stripping): erasable TypeScript only.
 */
import { runForSource, type HttpChannelHandler, type WebSocketChannelHandler } from '@bot-ai/api';
import { connectTask } from './connect-task.ts';
import { sendTask, subscriberDataTask } from './event-tasks.ts';
import { encodeFrameTask, receiveFrameTask } from './frame-tasks.ts';
import type { LoadedHandler } from './load-channel-handler.ts';
import { messageAttachmentsTask } from './message-attachments-task.ts';
import type { SandboxReply, SandboxRequest, SandboxRequestType } from './protocol.ts';
import { SandboxError, serializeError } from './sandbox-error.ts';
import { typingTask } from './typing-task.ts';
import { receiveWebhookTask, verifyWebhookTask } from './webhook-tasks.ts';

/**
 * Runs one task on the loaded plugin; never throws: every answer is a SandboxReply, so errors
 * travel as data and keep their `code`. `onSendStarted` is told before the plugin gets a send.
 */
export async function runTask(loading: Promise<LoadedHandler>, request: SandboxRequest, onSendStarted: (taskId: string) => void): Promise<SandboxReply<unknown>> {
  try {
    const loaded = await loading;
    // The plugin's `fetch` reads the source it serves from here: egress rules are per source.
    const sourceId = 'source' in request ? request.source.id : undefined;
    return { ok: true, value: await runForSource(sourceId, () => dispatch(loaded, request, onSendStarted)) };
  } catch (error) {
    return { ok: false, error: serializeError(error) };
  }
}

function dispatch(loaded: LoadedHandler, request: SandboxRequest, onSendStarted: (taskId: string) => void): Promise<unknown> {
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
      onSendStarted(request.taskId);
      // A WebSocket channel only encodes: the host delivers the frame to the socket it owns.
      if (loaded.kind === 'websocket') return encodeFrameTask(loaded.handler, request.envelope);
      return sendTask(httpHandler(loaded, request.type), request.event, request.source, request.envelope, request.options);
    }
    case 'channel.subscriberData':
      return subscriberDataTask(loaded.handler, request.event, request.source);
    case 'channel.typing':
      return typingTask(httpHandler(loaded, request.type), request.event, request.source);
    case 'channel.connect':
      return connectTask(httpHandler(loaded, request.type), request.source, request.context);
    case 'channel.messageAttachments':
      return messageAttachmentsTask(httpHandler(loaded, request.type), request.event, request.source);
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
