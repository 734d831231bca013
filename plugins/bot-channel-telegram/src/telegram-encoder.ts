import { ChannelError, ChannelOutboundMessageEncoder, type Button, type OutgoingEnvelopeOf } from '@bot-ai/api';

/**
 * Telegram's longest message text, in characters (`sendMessage`'s `text`: 1–4096).
 * @example getCapabilities() { return { …, maxTextLength: TELEGRAM_MAX_TEXT_LENGTH }; }
 */
export const TELEGRAM_MAX_TEXT_LENGTH = 4096;

/**
 * Telegram's longest media caption, in characters (`caption`: 0–1024).
 * @example if (text.length > TELEGRAM_MAX_CAPTION_LENGTH) sendSeparately(text);
 */
export const TELEGRAM_MAX_CAPTION_LENGTH = 1024;

/**
 * Telegram's largest `callback_data` of an inline button, in bytes (1–64).
 * @example Buffer.byteLength(payload, 'utf8') <= TELEGRAM_MAX_CALLBACK_DATA_BYTES
 */
export const TELEGRAM_MAX_CALLBACK_DATA_BYTES = 64;

/**
 * An inline keyboard button: a payload sent back in a `callback_query`, or a link.
 * @example const button: TelegramInlineButton = { text: 'Yes', callback_data: 'YES' };
 */
export type TelegramInlineButton = { text: string; callback_data: string } | { text: string; url: string };

/**
 * The `reply_markup` of a message with buttons under it, one button per row.
 * @example const markup: TelegramInlineKeyboard = { inline_keyboard: [[{ text: 'Docs', url: 'https://example.com' }]] };
 */
export interface TelegramInlineKeyboard {
  inline_keyboard: TelegramInlineButton[][];
}

/**
 * One Bot API send: the method, and its parameters but the `chat_id` (the handler adds it).
 * The files go by URL: Telegram downloads them itself.
 * @example const message: TelegramOutgoingMessage = { method: 'sendPhoto', params: { photo: 'https://host.example/f/1', caption: 'Hi' } };
 */
export type TelegramOutgoingMessage =
  | { method: 'sendMessage'; params: { text: string; reply_markup?: TelegramInlineKeyboard } }
  | { method: 'sendPhoto'; params: { photo: string; caption?: string } }
  | { method: 'sendAudio'; params: { audio: string; caption?: string } }
  | { method: 'sendVideo'; params: { video: string; caption?: string } }
  | { method: 'sendDocument'; params: { document: string; caption?: string } };

/**
 * Encodes envelopes into Bot API sends: text as `sendMessage`; quick replies and buttons as a
 * `sendMessage` with an inline keyboard (a payload becomes `callback_data`, a link `url`); an
 * attachment as `sendPhoto`/`sendAudio`/`sendVideo`/`sendDocument` by URL with the text as its
 * caption. Lists and carousels throw `UnsupportedOutgoingFormatError`.
 * @example new TelegramEncoder().dispatchEnvelope({ type: 'text', data: { text: 'Hi' } }) // { method: 'sendMessage', params: { text: 'Hi' } }
 */
export class TelegramEncoder extends ChannelOutboundMessageEncoder<TelegramOutgoingMessage> {
  protected encodeText(envelope: OutgoingEnvelopeOf<'text'>): TelegramOutgoingMessage {
    return { method: 'sendMessage', params: { text: envelope.data.text } };
  }

  protected encodeQuickReply(envelope: OutgoingEnvelopeOf<'quickReply'>): TelegramOutgoingMessage {
    const rows = envelope.data.quickReplies.map(({ title, payload }) => [payloadButton(title, payload)]);
    return { method: 'sendMessage', params: { text: envelope.data.text, reply_markup: { inline_keyboard: rows } } };
  }

  protected encodeButtons(envelope: OutgoingEnvelopeOf<'buttons'>): TelegramOutgoingMessage {
    const rows = envelope.data.buttons.map((button) => [toInlineButton(button)]);
    return { method: 'sendMessage', params: { text: envelope.data.text, reply_markup: { inline_keyboard: rows } } };
  }

  protected encodeAttachment(envelope: OutgoingEnvelopeOf<'attachment'>): TelegramOutgoingMessage {
    const { url, kind } = envelope.data.attachment;
    const caption = captionOf(envelope.data.text);
    const withCaption = caption === undefined ? {} : { caption };
    switch (kind) {
      case 'image':
        return { method: 'sendPhoto', params: { photo: url, ...withCaption } };
      case 'audio':
        return { method: 'sendAudio', params: { audio: url, ...withCaption } };
      case 'video':
        return { method: 'sendVideo', params: { video: url, ...withCaption } };
      case 'file':
        return { method: 'sendDocument', params: { document: url, ...withCaption } };
    }
  }

  protected encodeList(envelope: OutgoingEnvelopeOf<'list'>): never {
    return this.unsupported(envelope);
  }

  protected encodeCarousel(envelope: OutgoingEnvelopeOf<'carousel'>): never {
    return this.unsupported(envelope);
  }
}

function toInlineButton(button: Button): TelegramInlineButton {
  return button.type === 'url' ? { text: button.title, url: button.url } : payloadButton(button.title, button.payload);
}

/**
 * A button whose press comes back as a `callback_query` carrying `payload`. Telegram refuses
 * the whole message when a `callback_data` is over 64 bytes; refusing here names the payload.
 */
function payloadButton(text: string, payload: string): TelegramInlineButton {
  const bytes = Buffer.byteLength(payload, 'utf8');
  if (bytes > TELEGRAM_MAX_CALLBACK_DATA_BYTES) {
    throw new ChannelError(
      'TELEGRAM_ERR_PAYLOAD_TOO_LONG',
      `The payload of the button "${text}" is ${bytes} bytes; Telegram's callback_data holds at most ${TELEGRAM_MAX_CALLBACK_DATA_BYTES} (UTF-8): use a shorter payload`,
    );
  }
  return { text, callback_data: payload };
}

/**
 * The caption of a file, or undefined for none. The host splits long text by `maxTextLength`
 * (4096) but knows no caption limit, so a longer caption is refused with a clear error rather
 * than cut or sent as a second message that a retry would double.
 */
function captionOf(text: string | undefined): string | undefined {
  if (!text) return undefined;
  if (text.length > TELEGRAM_MAX_CAPTION_LENGTH) {
    throw new ChannelError(
      'TELEGRAM_ERR_CAPTION_TOO_LONG',
      `The text of the attachment is ${text.length} characters; a Telegram caption holds at most ${TELEGRAM_MAX_CAPTION_LENGTH}: send the text as its own message`,
    );
  }
  return text;
}
