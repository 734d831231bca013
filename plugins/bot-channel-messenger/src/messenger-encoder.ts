import { ChannelError, ChannelOutboundMessageEncoder, type Button, type OutgoingEnvelopeOf } from '@bot-ai/api';
import { MESSENGER_LIMITS } from './messenger-limits.ts';

/**
 * A button of a template: a postback (returns its payload) or a link.
 * @example const button: MessengerButton = { type: 'web_url', title: 'Docs', url: 'https://example.com/docs' };
 */
export type MessengerButton = { type: 'postback'; title: string; payload: string } | { type: 'web_url'; title: string; url: string };

/**
 * One card of a generic template (a carousel).
 * @example const card: MessengerGenericElement = { title: 'Linen shirt', image_url: 'https://shop.example.com/shirt.png' };
 */
export interface MessengerGenericElement {
  title: string;
  subtitle?: string;
  image_url?: string;
  buttons?: MessengerButton[];
}

/**
 * The file kinds the Send API takes by URL.
 * @example const type: MessengerMediaType = 'video';
 */
export type MessengerMediaType = 'image' | 'audio' | 'video' | 'file';

/**
 * The `message` part of one Send API request.
 * @example const message: MessengerOutgoingMessage = { text: 'Pick one', quick_replies: [{ content_type: 'text', title: 'Yes', payload: 'YES' }] };
 */
export type MessengerOutgoingMessage =
  | { text: string; quick_replies?: Array<{ content_type: 'text'; title: string; payload: string }> }
  | { attachment: { type: MessengerMediaType; payload: { url: string; is_reusable: true } } }
  | { attachment: { type: 'template'; payload: { template_type: 'button'; text: string; buttons: MessengerButton[] } } }
  | { attachment: { type: 'template'; payload: { template_type: 'generic'; elements: MessengerGenericElement[] } } };

/**
 * Encodes an envelope into the Send API messages that show it, sent in order: one message,
 * except an attachment with text, which Messenger cannot caption (the text goes first, then the
 * file). Lists and carousels both become a generic template (Meta retired the list template).
 * Throws a `ChannelError` (`MESSENGER_ERR_TOO_MANY_ITEMS`) past a count limit; see `MESSENGER_LIMITS`.
 * @example new MessengerEncoder().dispatchEnvelope({ type: 'text', data: { text: 'Hi' } }) // [{ text: 'Hi' }]
 */
export class MessengerEncoder extends ChannelOutboundMessageEncoder<MessengerOutgoingMessage[]> {
  protected encodeText(envelope: OutgoingEnvelopeOf<'text'>): MessengerOutgoingMessage[] {
    return [{ text: envelope.data.text }];
  }

  protected encodeQuickReply(envelope: OutgoingEnvelopeOf<'quickReply'>): MessengerOutgoingMessage[] {
    const { text, quickReplies } = envelope.data;
    atMost(quickReplies.length, MESSENGER_LIMITS.quickReplies, 'quick replies on one message');
    const quick_replies = quickReplies.map(({ title, payload }) => ({ content_type: 'text' as const, title: shorten(title, MESSENGER_LIMITS.quickReplyTitle), payload }));
    return [{ text, quick_replies }];
  }

  protected encodeButtons(envelope: OutgoingEnvelopeOf<'buttons'>): MessengerOutgoingMessage[] {
    const { text, buttons } = envelope.data;
    atMost(buttons.length, MESSENGER_LIMITS.buttons, 'buttons on one message');
    const payload = { template_type: 'button' as const, text: shorten(text, MESSENGER_LIMITS.buttonTemplateText), buttons: buttons.map(toMessengerButton) };
    return [{ attachment: { type: 'template', payload } }];
  }

  protected encodeAttachment(envelope: OutgoingEnvelopeOf<'attachment'>): MessengerOutgoingMessage[] {
    const { text, attachment } = envelope.data;
    // is_reusable: Meta keeps the file, so a resend of the same URL does not upload it again.
    const file: MessengerOutgoingMessage = { attachment: { type: attachment.kind, payload: { url: attachment.url, is_reusable: true } } };
    return text ? [{ text }, file] : [file];
  }

  protected encodeList(envelope: OutgoingEnvelopeOf<'list'>): MessengerOutgoingMessage[] {
    return [genericTemplate(envelope.data.elements)];
  }

  protected encodeCarousel(envelope: OutgoingEnvelopeOf<'carousel'>): MessengerOutgoingMessage[] {
    return [genericTemplate(envelope.data.elements)];
  }
}

function genericTemplate(elements: OutgoingEnvelopeOf<'carousel'>['data']['elements']): MessengerOutgoingMessage {
  atMost(elements.length, MESSENGER_LIMITS.elements, 'elements in one carousel or list');
  const cards = elements.map(({ title, subtitle, imageUrl, buttons }): MessengerGenericElement => {
    if (buttons) atMost(buttons.length, MESSENGER_LIMITS.buttons, 'buttons on one element');
    return {
      title: shorten(title, MESSENGER_LIMITS.elementTitle),
      ...(subtitle ? { subtitle: shorten(subtitle, MESSENGER_LIMITS.elementSubtitle) } : {}),
      ...(imageUrl ? { image_url: imageUrl } : {}),
      ...(buttons && buttons.length > 0 ? { buttons: buttons.map(toMessengerButton) } : {}),
    };
  });
  return { attachment: { type: 'template', payload: { template_type: 'generic', elements: cards } } };
}

function toMessengerButton(button: Button): MessengerButton {
  const title = shorten(button.title, MESSENGER_LIMITS.buttonTitle);
  return button.type === 'postback' ? { type: 'postback', title, payload: button.payload } : { type: 'web_url', title, url: button.url };
}

/** At most `max` characters (code points, so no emoji is cut in half), the last one `…` when cut. */
function shorten(text: string, max: number): string {
  const chars = [...text];
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join('')}…`;
}

function atMost(count: number, max: number, what: string): void {
  if (count > max) throw new ChannelError('MESSENGER_ERR_TOO_MANY_ITEMS', `Messenger shows at most ${max} ${what}; this message has ${count}`);
}
