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

  abstract decodeFrame(frame: WebSocketFrame, source: ChannelSource): ChannelInboundEvent[] | Promise<ChannelInboundEvent[]>;

  abstract encodeEnvelope(envelope: StdOutgoingMessageEnvelope): string | Promise<string>;

  abstract getSubscriberData(event: ChannelInboundEvent): SubscriberCreateDto | Promise<SubscriberCreateDto>;
}
