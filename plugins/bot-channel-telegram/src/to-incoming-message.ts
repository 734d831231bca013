import type { InboundAttachment, StdIncomingMessage } from '@bot-ai/api';
import type { TelegramCallbackQuery, TelegramFile, TelegramMessage, TelegramPhotoSize } from './telegram-update.schema.ts';

/**
 * The incoming message a Telegram `Message` carries, or undefined when it carries nothing the
 * channel decodes. A venue before its location (a venue message holds both), files before text
 * (their `caption` becomes the text), and plain `text` last.
 * @example toIncomingMessage({ …, text: 'hi' }) // { type: 'text', data: { text: 'hi' } }
 */
export function toIncomingMessage(message: TelegramMessage): StdIncomingMessage | undefined {
  if (message.venue) {
    const { location, title, address } = message.venue;
    return { type: 'location', data: { location: { latitude: location.latitude, longitude: location.longitude, ...definedOnly({ title, address }) } } };
  }
  if (message.location) {
    const { latitude, longitude } = message.location;
    return { type: 'location', data: { location: { latitude, longitude } } };
  }
  const attachment = toAttachment(message);
  if (attachment) return { type: 'attachment', data: { ...definedOnly({ text: message.caption }), attachments: [attachment] } };
  if (message.text !== undefined) return { type: 'text', data: { text: message.text } };
  return undefined;
}

/**
 * The file of a message, by Telegram's `file_id` (the download link embeds the bot token, so
 * it is looked up only when the host downloads: see `getMessageAttachments`).
 */
function toAttachment(message: TelegramMessage): InboundAttachment | undefined {
  // Telegram stores every photo as JPEG, in several sizes: the largest is the original.
  if (message.photo) return { kind: 'image', platformId: largest(message.photo).file_id, mimeType: 'image/jpeg' };
  if (message.document) return fileAttachment('file', message.document);
  if (message.audio) return fileAttachment('audio', message.audio);
  if (message.voice) return fileAttachment('audio', message.voice);
  if (message.video) return fileAttachment('video', message.video);
  if (message.video_note) return fileAttachment('video', message.video_note);
  return undefined;
}

function fileAttachment(kind: InboundAttachment['kind'], file: TelegramFile): InboundAttachment {
  return { kind, platformId: file.file_id, ...definedOnly({ name: file.file_name, mimeType: file.mime_type }) };
}

/** The size with the most pixels; Telegram lists them smallest first, so a tie goes to the later one. */
function largest(sizes: readonly TelegramPhotoSize[]): TelegramPhotoSize {
  const area = (size: TelegramPhotoSize) => (size.width ?? 0) * (size.height ?? 0);
  return sizes.reduce((best, size) => (area(size) >= area(best) ? size : best));
}

/**
 * The quick reply a button press stands for: the button's `data` as the payload, and the text
 * of the pressed button, found in the keyboard of the message it was attached to (the data
 * itself when the keyboard is not there, e.g. a message too old to be sent along).
 * @example toQuickReply({ id: '1', from, data: 'YES', message: { chat, reply_markup: { inline_keyboard: [[{ text: 'Yes', callback_data: 'YES' }]] } } })
 * // { type: 'quickReply', data: { text: 'Yes', payload: 'YES' } }
 */
export function toQuickReply(query: TelegramCallbackQuery & { data: string }): StdIncomingMessage {
  const buttons = query.message?.reply_markup?.inline_keyboard?.flat() ?? [];
  const pressed = buttons.find((button) => button.callback_data === query.data);
  return { type: 'quickReply', data: { text: pressed?.text || query.data, payload: query.data } };
}

/** The fields of `fields` that are not undefined: optional keys are left out, not stored as undefined. */
function definedOnly<T extends Record<string, unknown>>(fields: T): { [K in keyof T]?: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as { [K in keyof T]?: Exclude<T[K], undefined> };
}
