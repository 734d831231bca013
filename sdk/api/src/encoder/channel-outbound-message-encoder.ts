import type { OutgoingEnvelopeOf, StdOutgoingMessageEnvelope } from '@bot-ai/types';
import { UnsupportedOutgoingFormatError } from '../errors.ts';

/**
 * Turns each outgoing type into the platform's format. Every type has its own method, so a new
 * type cannot be forgotten; throw `UnsupportedOutgoingFormatError` (see `unsupported`) for types
 * the channel declares unsupported.
 * @example
 * class SampleEncoder extends ChannelOutboundMessageEncoder<SampleMessage> {
 *   protected encodeText(envelope) { return { text: envelope.data.text }; }
 *   protected encodeButtons(envelope) { return this.unsupported(envelope); }
 *   …
 * }
 * const message = new SampleEncoder().dispatchEnvelope(envelope);
 */
export abstract class ChannelOutboundMessageEncoder<Out> {
  dispatchEnvelope(envelope: StdOutgoingMessageEnvelope): Out {
    switch (envelope.type) {
      case 'text':
        return this.encodeText(envelope);
      case 'quickReply':
        return this.encodeQuickReply(envelope);
      case 'buttons':
        return this.encodeButtons(envelope);
      case 'attachment':
        return this.encodeAttachment(envelope);
      case 'list':
        return this.encodeList(envelope);
      case 'carousel':
        return this.encodeCarousel(envelope);
      default:
        return this.unsupported(envelope);
    }
  }

  protected abstract encodeText(envelope: OutgoingEnvelopeOf<'text'>): Out;
  protected abstract encodeQuickReply(envelope: OutgoingEnvelopeOf<'quickReply'>): Out;
  protected abstract encodeButtons(envelope: OutgoingEnvelopeOf<'buttons'>): Out;
  protected abstract encodeAttachment(envelope: OutgoingEnvelopeOf<'attachment'>): Out;
  protected abstract encodeList(envelope: OutgoingEnvelopeOf<'list'>): Out;
  protected abstract encodeCarousel(envelope: OutgoingEnvelopeOf<'carousel'>): Out;

  /** For the types this channel cannot send. */
  protected unsupported(envelope: { type: string }): never {
    throw new UnsupportedOutgoingFormatError(envelope.type);
  }
}
