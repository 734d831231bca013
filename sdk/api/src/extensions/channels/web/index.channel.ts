import type { ChannelCapabilities, StdOutgoingMessageEnvelope, SubscriberCreateDto } from '@bot-ai/types';
import { DEFAULT_CHANNEL_CAPABILITIES } from '../../../capabilities.ts';
import { ExtensionInject } from '../../../decorators/extension-inject.ts';
import { Injectable } from '../../../decorators/injectable.ts';
import type { ChannelInboundEvent } from '../../../events/channel-inbound-event.ts';
import { WebSocketChannelHandler, type WebSocketFrame } from '../../../handlers/websocket-channel-handler.ts';
import { buildWebSubscriber } from './build-web-subscriber.ts';
import { decodeWebFrame } from './decode-web-frame.ts';
import { WEB_CHANNEL_NAME } from './web-channel-name.ts';
import { WebEncoder } from './web-encoder.ts';
import { webSettingsSchema } from './web-settings.schema.ts';

/**
 * The built-in live chat channel behind `/chat/:sourceRef`: the host owns the sockets
 * (`/api/ws/:sourceRef`) and the sessions; this handler, in its sandbox like any channel, turns
 * client frames into message events and replies into the frames the chat page renders.
 * @example
 * const channel = applyExtensionInjections(new WebChannel());
 * const [event] = channel.decodeFrame({ sessionId, data: '{"type":"message","id":"m1","text":"hi"}' }, source);
 * channel.encodeEnvelope({ type: 'text', data: { text: 'Hello!' } }); // '{"type":"text","text":"Hello!"}'
 */
@Injectable()
export default class WebChannel extends WebSocketChannelHandler<typeof webSettingsSchema> {
  @ExtensionInject(WebEncoder) protected readonly encoder!: WebEncoder;

  constructor() {
    super(WEB_CHANNEL_NAME, webSettingsSchema);
  }

  decodeFrame(frame: WebSocketFrame): ChannelInboundEvent[] {
    return decodeWebFrame(frame);
  }

  encodeEnvelope(envelope: StdOutgoingMessageEnvelope): string {
    return JSON.stringify(this.encoder.dispatchEnvelope(envelope));
  }

  getSubscriberData(event: ChannelInboundEvent): SubscriberCreateDto {
    return buildWebSubscriber(event);
  }

  override getCapabilities(): ChannelCapabilities {
    return { ...DEFAULT_CHANNEL_CAPABILITIES, text: true, quickReply: true, buttons: true, typingIndicator: true, maxTextLength: 4000, idempotentSends: true };
  }
}
