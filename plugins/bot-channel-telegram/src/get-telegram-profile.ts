import { ChannelError, z } from '@bot-ai/api';
import { callTelegram, type TelegramApi } from './call-telegram.ts';
import type { TelegramNames } from './build-telegram-subscriber.ts';

/** The `ChatFullInfo` of a private chat: the user's names (`first_name` is always there for a user). */
const privateChatSchema = z.looseObject({ first_name: z.string(), last_name: z.string().optional() });

/**
 * A user's current names from `getChat { chat_id: <user id> }` (a user's private chat with the
 * bot has the user's id). Throws on any failure (the call's errors, or
 * `ChannelError('TELEGRAM_ERR_BAD_PROFILE')` for an answer without a first name): the caller
 * falls back to the names in the update.
 * @example await getTelegramProfile(api, 123456789) // { first_name: 'Ada', last_name: 'Lovelace' }
 */
export async function getTelegramProfile(api: TelegramApi, userId: number): Promise<TelegramNames> {
  const chat = privateChatSchema.safeParse(await callTelegram(api, 'getChat', { chat_id: userId }));
  if (!chat.success) throw new ChannelError('TELEGRAM_ERR_BAD_PROFILE', 'Telegram answered getChat without a first_name');
  return { first_name: chat.data.first_name, last_name: chat.data.last_name };
}
