import { ChannelError, z } from '@bot-ai/api';
import { callTelegram, type TelegramApi } from './call-telegram.ts';
import type { TelegramOutgoingMessage } from './telegram-encoder.ts';

/** The `result` of a send method: the `Message` sent, of which only the id is read. */
const sentMessageSchema = z.looseObject({ message_id: z.number().int() });

/**
 * Sends one encoded message to `chatId` (`POST …/bot<token>/<method>` with
 * `{ chat_id, ...params }`) and returns Telegram's `message_id` as a string: the `mid`.
 * Errors are `callTelegram`'s, plus `ChannelError('TELEGRAM_ERR_NO_MESSAGE_ID')` for a success
 * without a message id.
 * @example const mid = await sendTelegramMessage(api, 42, { method: 'sendMessage', params: { text: 'Hi' } }); // '7'
 */
export async function sendTelegramMessage(api: TelegramApi, chatId: number, message: TelegramOutgoingMessage): Promise<string> {
  const result = await callTelegram(api, message.method, { chat_id: chatId, ...message.params });
  const sent = sentMessageSchema.safeParse(result);
  if (!sent.success) throw new ChannelError('TELEGRAM_ERR_NO_MESSAGE_ID', `Telegram answered ${message.method} without a message_id`);
  return String(sent.data.message_id);
}

/**
 * Shows "typing…" in `chatId` (`sendChatAction` with `action: 'typing'`); Telegram shows it for
 * 5 seconds or until the next message arrives.
 * @example await sendTelegramTyping(api, 42);
 */
export async function sendTelegramTyping(api: TelegramApi, chatId: number): Promise<void> {
  await callTelegram(api, 'sendChatAction', { chat_id: chatId, action: 'typing' });
}
