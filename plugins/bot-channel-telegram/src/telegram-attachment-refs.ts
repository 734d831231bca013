import { ChannelError, z, type InboundAttachment, type InboundAttachmentRef } from '@bot-ai/api';
import { callTelegram, telegramFileUrl, type TelegramApi } from './call-telegram.ts';

/** The `File` that `getFile` answers; `file_path` is absent when the file cannot be downloaded. */
const fileSchema = z.looseObject({ file_path: z.string().min(1).optional() });

/**
 * Where the host downloads each attachment of an incoming message, in order. A Telegram file
 * (`platformId` = `file_id`) is looked up with `getFile`, whose `file_path` gives the download
 * URL `{api_base_url}/file/bot<token>/<file_path>`: it holds the bot token, so it goes to the host
 * for this one download and is never stored (Telegram keeps it valid for at least an hour). Bots
 * may download files of up to 20 MB; Telegram answers `getFile` 400 for larger ones.
 * @example await telegramAttachmentRefs(api, [{ kind: 'image', platformId: 'AgACAgIAAxkBAAI…', mimeType: 'image/jpeg' }])
 * // [{ url: 'https://api.telegram.org/file/bot123:abc/photos/file_0.jpg', name: 'file_0.jpg', mimeType: 'image/jpeg' }]
 */
export async function telegramAttachmentRefs(api: TelegramApi, attachments: readonly InboundAttachment[]): Promise<InboundAttachmentRef[]> {
  const refs: InboundAttachmentRef[] = [];
  // One at a time: the order is the message's, and a photo album's files do not burst the API.
  for (const attachment of attachments) refs.push(await refOf(api, attachment));
  return refs;
}

async function refOf(api: TelegramApi, attachment: InboundAttachment): Promise<InboundAttachmentRef> {
  const described = { ...(attachment.mimeType ? { mimeType: attachment.mimeType } : {}) };
  if (!attachment.platformId) {
    if (attachment.url) return { url: attachment.url, ...(attachment.name ? { name: attachment.name } : {}), ...described };
    throw new ChannelError('TELEGRAM_ERR_NO_FILE_ID', 'An attachment has neither a Telegram file_id nor a URL');
  }
  const file = fileSchema.safeParse(await callTelegram(api, 'getFile', { file_id: attachment.platformId }));
  const filePath = file.data?.file_path;
  if (!filePath) throw new ChannelError('TELEGRAM_ERR_FILE_UNAVAILABLE', 'Telegram answered getFile without a file_path: the file cannot be downloaded');
  // A photo has no file name of its own: the last part of its path (`file_0.jpg`) stands in.
  const name = attachment.name || filePath.split('/').pop() || undefined;
  return { url: telegramFileUrl(api.apiBaseUrl, api.botToken, filePath), ...(name ? { name } : {}), ...described };
}
