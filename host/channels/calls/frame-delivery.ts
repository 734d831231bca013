import type { ChannelSource, PlainInboundEvent, SendMessageOptions, SendMessageResult } from '@bot-ai/api';
import type { SendTaskResult } from '../plugin-side/protocol.ts';
import { SandboxError } from '../plugin-side/sandbox-error.ts';

/** One reply of a WebSocket channel, encoded by the plugin, for the host to deliver. */
export interface EncodedReply {
  /** The event being answered: its sender is the session the reply belongs to. */
  event: PlainInboundEvent;
  source: ChannelSource;
  frame: string;
  /** The send key: delivering the same key twice stores and pushes the reply once. */
  idempotencyKey: string;
}

/** The host's delivery of WebSocket replies: stored durably, then pushed to the live sockets. */
export interface FrameDelivery {
  deliver(reply: EncodedReply): Promise<SendMessageResult>;
}

/** The send being finished: what it answered, and where a WebSocket channel's frame goes. */
export interface FinishedSend {
  event: PlainInboundEvent;
  source: ChannelSource;
  options: SendMessageOptions;
  result: SendTaskResult;
  /** Label in errors (the channel's file as discovered). */
  label: string;
}

/**
 * A send's answer: an HTTP channel's platform result as it is; a WebSocket channel only encodes
 * the envelope, so its frame goes to `delivery`, whose answer is the send's.
 * @example return deliverSendResult({ event, source, options, result, label }, options.frameDelivery);
 */
export async function deliverSendResult(send: FinishedSend, delivery: FrameDelivery | undefined): Promise<SendMessageResult> {
  const { event, source, options, result, label } = send;
  if (!('frame' in result)) return result;
  if (!delivery) throw new SandboxError('BOT_ERR_PLUGIN_CALL_UNSUPPORTED', `${label}: this host delivers no WebSocket frames`);
  return delivery.deliver({ event, source, frame: result.frame, idempotencyKey: options.idempotencyKey });
}
