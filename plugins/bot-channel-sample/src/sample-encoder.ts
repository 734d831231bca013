import { ChannelOutboundMessageEncoder, type OutgoingEnvelopeOf } from '@bot-ai/api';

/** The `message` part of a send request to the sample platform. */
export interface SampleOutgoingMessage {
  text: string;
  quick_replies?: Array<{ title: string; payload: string }>;
}

/**
 * Encodes envelopes into the sample platform's message format. The platform shows text and
 * quick replies only; every other type throws `UnsupportedOutgoingFormatError`.
 * @example new SampleEncoder().dispatchEnvelope({ type: 'text', data: { text: 'Hi' } }) // { text: 'Hi' }
 */
export class SampleEncoder extends ChannelOutboundMessageEncoder<SampleOutgoingMessage> {
  protected encodeText(envelope: OutgoingEnvelopeOf<'text'>): SampleOutgoingMessage {
    return { text: envelope.data.text };
  }

  protected encodeQuickReply(envelope: OutgoingEnvelopeOf<'quickReply'>): SampleOutgoingMessage {
    const quickReplies = envelope.data.quickReplies.map(({ title, payload }) => ({ title, payload }));
    return { text: envelope.data.text, quick_replies: quickReplies };
  }

  protected encodeButtons(envelope: OutgoingEnvelopeOf<'buttons'>): never {
    return this.unsupported(envelope);
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
