import type { IncomingMessageType, StdIncomingMessage } from '@bot-ai/types';
import { ChannelInboundEvent, type PlainInboundEvent } from './channel-inbound-event.ts';
import type { InboundEventContext } from './inbound-event-context.ts';

/**
 * A message from a subscriber: text, a quick-reply choice, or attachments.
 * @example new MessageInboundEvent(context, { type: 'quickReply', data: { text: 'Yes', payload: 'YES' } })
 */
export class MessageInboundEvent extends ChannelInboundEvent {
  constructor(
    context: InboundEventContext,
    readonly message: StdIncomingMessage,
  ) {
    super(context);
  }

  getMessage(): StdIncomingMessage {
    return this.message;
  }

  getMessageType(): IncomingMessageType {
    return this.message.type;
  }

  /** The text of the message; for a quick reply, its title. */
  getText(): string | undefined {
    return this.message.data.text;
  }

  /** The payload of a quick-reply choice. */
  getPayload(): string | undefined {
    return this.message.type === 'quickReply' ? this.message.data.payload : undefined;
  }

  override toPlain(): PlainInboundEvent {
    return { ...super.toPlain(), kind: 'message', message: this.message };
  }
}
