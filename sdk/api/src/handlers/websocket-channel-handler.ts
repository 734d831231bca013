import type { StdOutgoingMessageEnvelope, SubscriberCreateDto } from '@bot-ai/types';
import { CHANNEL_HANDLER_KIND, type ChannelHandlerKind } from '../brands.ts';
import type { ChannelInboundEvent } from '../events/channel-inbound-event.ts';
import type { ChannelSource } from '../source.ts';
import { ChannelHandler, type SettingsSchema } from './channel-handler.ts';

/** One frame received on a live socket, with the session the host tracks for it. */
export interface WebSocketFrame {
  sessionId: string;
  data: string;
}

/**
 * The base class of live-socket channels. The host owns the sockets; the handler decodes frames
 * into events and encodes envelopes into frames, in its sandbox like any channel.
 * @example
 * @Injectable()
 * export default class WebChannel extends WebSocketChannelHandler<typeof settings> {
 *   decodeFrame(frame, source) { … }
 *   encodeEnvelope(envelope) { return JSON.stringify(envelope); }
 *   getSubscriberData(event) { … }
 * }
 */
export abstract class WebSocketChannelHandler<S extends SettingsSchema = SettingsSchema> extends ChannelHandler<S> {
  static override readonly [CHANNEL_HANDLER_KIND]: ChannelHandlerKind | undefined = 'websocket';

  /**
   * The events one client frame carries. Each event's sender foreign id must be
   * `frame.sessionId` (the host refuses others), so the replies to it find the socket; throw
   * `PayloadRejectedError` for a frame the client got wrong (it gets an error frame).
   */
  abstract decodeFrame(frame: WebSocketFrame, source: ChannelSource): ChannelInboundEvent[] | Promise<ChannelInboundEvent[]>;

  /** The frame text (JSON) for one envelope; the host stores it per session and pushes it to the session's sockets. */
  abstract encodeEnvelope(envelope: StdOutgoingMessageEnvelope): string | Promise<string>;

  abstract getSubscriberData(event: ChannelInboundEvent): SubscriberCreateDto | Promise<SubscriberCreateDto>;
}
