/**
 * Worker side: the tasks of a WebSocket channel. The host owns the sockets and sessions; the
 * plugin only decodes frames into events and encodes envelopes into frames.
 */
import {
  type ChannelSource,
  type PlainInboundEvent,
  type StdOutgoingMessageEnvelope,
  type WebSocketChannelHandler,
  type WebSocketFrame,
} from '@bot-ai/api';
import { callPlugin, pluginThrew } from './call-plugin.ts';
import type { ReceiveFrameResult } from './protocol.ts';
import { errorCode, SandboxError, serializeError } from './sandbox-error.ts';

const PAYLOAD_REJECTED = 'BOT_ERR_CHANNEL_PAYLOAD_REJECTED';

/**
 * decodeFrame: a payload rejection or a ZodError is the client's mistake (`invalid`), any other
 * throw a plugin failure. Every event must name the frame's session as its sender, so that the
 * replies to it find the socket again.
 */
export async function receiveFrameTask(handler: WebSocketChannelHandler, frame: WebSocketFrame, source: ChannelSource): Promise<ReceiveFrameResult> {
  let decoded: unknown;
  try {
    decoded = await handler.decodeFrame(frame, source);
  } catch (error) {
    if (errorCode(error) === PAYLOAD_REJECTED || (error as { name?: unknown } | null)?.name === 'ZodError') {
      return { outcome: 'invalid', reason: serializeError(error) };
    }
    throw pluginThrew('decodeFrame', error);
  }
  return { outcome: 'accepted', events: toSessionEvents(decoded, frame.sessionId, source) };
}

/** encodeEnvelope: the frame the host stores and pushes to the session's sockets. */
export async function encodeFrameTask(handler: WebSocketChannelHandler, envelope: StdOutgoingMessageEnvelope): Promise<{ frame: string }> {
  const frame = await callPlugin('encodeEnvelope', () => handler.encodeEnvelope(envelope));
  if (typeof frame !== 'string') throw new SandboxError('BOT_ERR_PLUGIN_INVALID_RESULT', 'encodeEnvelope() must return a string');
  return { frame };
}

interface EventLike {
  bindSource(source: ChannelSource): unknown;
  toPlain(): PlainInboundEvent;
}

function toSessionEvents(decoded: unknown, sessionId: string, source: ChannelSource): PlainInboundEvent[] {
  if (!Array.isArray(decoded)) {
    throw new SandboxError('BOT_ERR_PLUGIN_INVALID_RESULT', `decodeFrame() must return an array of ChannelInboundEvent, got ${typeof decoded}`);
  }
  return decoded.map((event: unknown, index) => {
    const candidate = event as Partial<EventLike> | null;
    if (typeof candidate?.toPlain !== 'function' || typeof candidate.bindSource !== 'function') {
      throw new SandboxError('BOT_ERR_PLUGIN_INVALID_RESULT', `decodeFrame() returned an item that is not a ChannelInboundEvent at index ${index}`);
    }
    candidate.bindSource(source);
    const plain = candidate.toPlain();
    if (plain.senderForeignId !== sessionId) {
      throw new SandboxError('BOT_ERR_PLUGIN_INVALID_RESULT', `decodeFrame() must use the frame's sessionId as the sender of each event (index ${index})`);
    }
    return plain;
  });
}
