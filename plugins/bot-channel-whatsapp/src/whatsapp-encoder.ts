import { ChannelError, ChannelOutboundMessageEncoder, type Button, type OutgoingEnvelopeOf } from '@bot-ai/api';

/** The Cloud API's limits on interactive messages and captions, in characters. */
export const WHATSAPP_LIMITS = {
  /** Reply buttons in one `button` message; more choices go into a `list`. */
  replyButtons: 3,
  /** Rows of one `list` message. */
  listRows: 10,
  buttonTitle: 20,
  rowTitle: 24,
  rowDescription: 72,
  /** The list's menu button and a `cta_url` button's text. */
  actionText: 20,
  interactiveBody: 1024,
  caption: 1024,
} as const;

/** The Cloud API's limit on a text message body, in characters (the host splits longer text). */
export const WHATSAPP_MAX_TEXT_LENGTH = 4096;

/** The label of the button that opens a list of choices (WhatsApp requires one; ≤ 20 characters). */
export const WHATSAPP_LIST_BUTTON_LABEL = 'Options';

/** A file sent by its public URL. */
export interface WhatsAppMediaObject {
  link: string;
  caption?: string;
  filename?: string;
}

/** An `interactive` message: reply buttons, a list of rows, or one URL button. */
export type WhatsAppInteractive =
  | { type: 'button'; body: { text: string }; action: { buttons: Array<{ type: 'reply'; reply: { id: string; title: string } }> } }
  | {
      type: 'list';
      body: { text: string };
      action: { button: string; sections: Array<{ rows: Array<{ id: string; title: string; description?: string }> }> };
    }
  | { type: 'cta_url'; body: { text: string }; action: { name: 'cta_url'; parameters: { display_text: string; url: string } } };

/**
 * The message part of a send request (`POST /{phone_number_id}/messages`): everything but
 * `messaging_product`, `recipient_type` and `to`, which the sender adds.
 */
export type WhatsAppOutgoingMessage =
  | { type: 'text'; text: { body: string } }
  | { type: 'interactive'; interactive: WhatsAppInteractive }
  | { type: 'image'; image: WhatsAppMediaObject }
  | { type: 'audio'; audio: WhatsAppMediaObject }
  | { type: 'video'; video: WhatsAppMediaObject }
  | { type: 'document'; document: WhatsAppMediaObject };

/** A choice the user can tap: its title and the payload that comes back. */
interface Choice {
  title: string;
  payload: string;
}

/**
 * Encodes envelopes into Cloud API messages: text; quick replies and postback buttons as reply
 * buttons (up to 3) or a list (up to 10); a single URL button as a `cta_url` button; files by
 * link. Titles longer than WhatsApp allows are shortened with `…` (payloads never are). Lists and
 * carousels throw `UnsupportedOutgoingFormatError`: the Cloud API has no such free-form message.
 * @example new WhatsAppEncoder().dispatchEnvelope({ type: 'text', data: { text: 'Hi' } }) // { type: 'text', text: { body: 'Hi' } }
 */
export class WhatsAppEncoder extends ChannelOutboundMessageEncoder<WhatsAppOutgoingMessage> {
  protected encodeText(envelope: OutgoingEnvelopeOf<'text'>): WhatsAppOutgoingMessage {
    return { type: 'text', text: { body: envelope.data.text } };
  }

  protected encodeQuickReply(envelope: OutgoingEnvelopeOf<'quickReply'>): WhatsAppOutgoingMessage {
    return choices(envelope.data.text, envelope.data.quickReplies);
  }

  /**
   * WhatsApp cannot mix reply buttons and links in one message: a lone URL button becomes a
   * `cta_url` button; otherwise the links are written into the text, under it.
   */
  protected encodeButtons(envelope: OutgoingEnvelopeOf<'buttons'>): WhatsAppOutgoingMessage {
    const { text, buttons } = envelope.data;
    const postbacks = buttons.filter((button) => button.type === 'postback');
    const links = buttons.filter((button): button is Extract<Button, { type: 'url' }> => button.type === 'url');
    if (links.length === 0) return choices(text, postbacks);
    if (links.length === 1 && postbacks.length === 0) {
      const [link] = links as [Extract<Button, { type: 'url' }>];
      const parameters = { display_text: shorten(link.title, WHATSAPP_LIMITS.actionText), url: link.url };
      return { type: 'interactive', interactive: { type: 'cta_url', body: { text: bodyText(text) }, action: { name: 'cta_url', parameters } } };
    }
    const withLinks = [text, ...links.map((link) => `${link.title}: ${link.url}`)].filter((line) => line !== '').join('\n');
    return postbacks.length > 0 ? choices(withLinks, postbacks) : { type: 'text', text: { body: withLinks } };
  }

  /**
   * Files go by link. Audio has no caption on WhatsApp, so an audio file with a text goes as a
   * document (still playable) rather than losing the text.
   */
  protected encodeAttachment(envelope: OutgoingEnvelopeOf<'attachment'>): WhatsAppOutgoingMessage {
    const { text, attachment } = envelope.data;
    const caption = text ? { caption: shorten(text, WHATSAPP_LIMITS.caption) } : {};
    switch (attachment.kind) {
      case 'image':
        return { type: 'image', image: { link: attachment.url, ...caption } };
      case 'video':
        return { type: 'video', video: { link: attachment.url, ...caption } };
      case 'audio':
        if (!text) return { type: 'audio', audio: { link: attachment.url } };
        return { type: 'document', document: { link: attachment.url, ...caption, ...filename(attachment.name) } };
      case 'file':
        return { type: 'document', document: { link: attachment.url, ...caption, ...filename(attachment.name) } };
    }
  }

  protected encodeList(envelope: OutgoingEnvelopeOf<'list'>): never {
    return this.unsupported(envelope);
  }

  protected encodeCarousel(envelope: OutgoingEnvelopeOf<'carousel'>): never {
    return this.unsupported(envelope);
  }
}

/**
 * Up to 3 choices as reply buttons, up to 10 as the rows of a list (a long title is shortened
 * and written in full in the row's description). More cannot be shown in one message.
 */
function choices(text: string, options: Choice[]): WhatsAppOutgoingMessage {
  const body = { text: bodyText(text) };
  if (options.length <= WHATSAPP_LIMITS.replyButtons) {
    const buttons = options.map(({ title, payload }) => ({ type: 'reply' as const, reply: { id: payload, title: shorten(title, WHATSAPP_LIMITS.buttonTitle) } }));
    return { type: 'interactive', interactive: { type: 'button', body, action: { buttons } } };
  }
  if (options.length > WHATSAPP_LIMITS.listRows) {
    throw new ChannelError(
      'WHATSAPP_ERR_TOO_MANY_CHOICES',
      `WhatsApp shows at most ${WHATSAPP_LIMITS.listRows} choices in one message; this one has ${options.length}`,
    );
  }
  const rows = options.map(({ title, payload }) => {
    const shortTitle = shorten(title, WHATSAPP_LIMITS.rowTitle);
    const description = shortTitle === title ? {} : { description: shorten(title, WHATSAPP_LIMITS.rowDescription) };
    return { id: payload, title: shortTitle, ...description };
  });
  return { type: 'interactive', interactive: { type: 'list', body, action: { button: WHATSAPP_LIST_BUTTON_LABEL, sections: [{ rows }] } } };
}

function bodyText(text: string): string {
  return shorten(text, WHATSAPP_LIMITS.interactiveBody);
}

function filename(name: string | undefined): { filename?: string } {
  return name ? { filename: name } : {};
}

/**
 * `text` cut to `max` characters (code points, so an emoji is never split), ending with `…`
 * when cut: WhatsApp rejects the whole message when a title is too long.
 */
function shorten(text: string, max: number): string {
  const characters = [...text];
  return characters.length <= max ? text : `${characters.slice(0, max - 1).join('')}…`;
}
