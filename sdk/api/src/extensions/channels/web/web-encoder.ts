import type { Button, OutgoingEnvelopeOf, QuickReply } from '@bot-ai/types';
import { ChannelOutboundMessageEncoder } from '../../../encoder/channel-outbound-message-encoder.ts';

/** What the chat page renders for one reply (the `message` of a `reply` frame). */
export type WebReplyMessage =
  | { type: 'text'; text: string }
  | { type: 'quick_reply'; text: string; quickReplies: QuickReply[] }
  | { type: 'buttons'; text: string; buttons: Button[] };

/**
 * Encodes envelopes for the chat page: text, quick replies (tappable chips that answer with
 * their payload) and buttons (a postback answers like a quick reply, a url opens a link).
 * Attachments, lists and carousels throw `UnsupportedOutgoingFormatError`.
 * @example new WebEncoder().dispatchEnvelope({ type: 'text', data: { text: 'Hi' } }) // { type: 'text', text: 'Hi' }
 */
export class WebEncoder extends ChannelOutboundMessageEncoder<WebReplyMessage> {
  protected encodeText(envelope: OutgoingEnvelopeOf<'text'>): WebReplyMessage {
    return { type: 'text', text: envelope.data.text };
  }

  protected encodeQuickReply(envelope: OutgoingEnvelopeOf<'quickReply'>): WebReplyMessage {
    const quickReplies = envelope.data.quickReplies.map(({ title, payload }) => ({ title, payload }));
    return { type: 'quick_reply', text: envelope.data.text, quickReplies };
  }

  protected encodeButtons(envelope: OutgoingEnvelopeOf<'buttons'>): WebReplyMessage {
    return { type: 'buttons', text: envelope.data.text, buttons: envelope.data.buttons };
  }

  protected encodeAttachment(envelope: OutgoingEnvelopeOf<'attachment'>): never {
    return this.unsupported(envelope);
  }

  protected encodeList(envelope: OutgoingEnvelopeOf<'list'>): never {
    return this.unsupported(envelope);
  }

  protected encodeCarousel(envelope: OutgoingEnvelopeOf<'carousel'>): never {
    return this.unsupported(envelope);
  }
}
