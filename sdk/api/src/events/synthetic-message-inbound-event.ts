import type { PlainInboundEvent } from './channel-inbound-event.ts';
import { MessageInboundEvent } from './message-inbound-event.ts';

/**
 * A message the host makes up rather than receives (a workflow test run, a "get started"
 * trigger). Channels send replies to it like to any message.
 * @example new SyntheticMessageInboundEvent(context, { type: 'text', data: { text: 'hello' } })
 */
export class SyntheticMessageInboundEvent extends MessageInboundEvent {
  override toPlain(): PlainInboundEvent {
    return { ...super.toPlain(), kind: 'synthetic' };
  }
}
