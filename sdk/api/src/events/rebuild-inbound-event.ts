import { ChannelInboundEvent, type PlainInboundEvent } from './channel-inbound-event.ts';
import type { InboundEventContext } from './inbound-event-context.ts';
import { MessageInboundEvent } from './message-inbound-event.ts';
import { SyntheticMessageInboundEvent } from './synthetic-message-inbound-event.ts';

/**
 * Rebuilds an event from its plain form, on the other side of a thread or after storage. What
 * survives: the context fields and the message; subclass fields a plugin adds do not.
 * @example const event = rebuildInboundEvent(stored).bindSource(source);
 */
export function rebuildInboundEvent(plain: PlainInboundEvent): ChannelInboundEvent {
  const context: InboundEventContext = {
    channelName: plain.channelName,
    rawEvent: plain.rawEvent,
    channelAttributes: plain.channelAttributes,
    occurredAt: new Date(plain.occurredAt),
    eventId: plain.eventId,
    ...(plain.senderForeignId === undefined ? {} : { senderForeignId: plain.senderForeignId }),
    ...(plain.recipientForeignId === undefined ? {} : { recipientForeignId: plain.recipientForeignId }),
  };
  if (plain.kind === 'channel' || !plain.message) return new ChannelInboundEvent(context);
  if (plain.kind === 'synthetic') return new SyntheticMessageInboundEvent(context, plain.message);
  return new MessageInboundEvent(context, plain.message);
}
