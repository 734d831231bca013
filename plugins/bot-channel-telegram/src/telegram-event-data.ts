import { ChannelError, type ChannelInboundEvent, type StdIncomingMessage } from '@bot-ai/api';
import type { TelegramChannelAttributes } from './telegram-channel-attributes.ts';
import { telegramUpdateSchema, type TelegramUser } from './telegram-update.schema.ts';

/**
 * What the handler reads back from a stored event. Every function here works from the event's
 * accessors alone (its raw update, channel attributes and sender), so it works on an event rebuilt
 * on another thread, and on a synthetic event the host made up (no raw update).
 */

/**
 * The sender (`User`) of the update behind an event: `message.from` or `callback_query.from`;
 * undefined when the raw event is not a Telegram update.
 * @example telegramSenderOf(event)?.language_code // 'en'
 */
export function telegramSenderOf(event: ChannelInboundEvent): TelegramUser | undefined {
  const update = telegramUpdateSchema.safeParse(event.getRawEvent()).data;
  return update?.message?.from ?? update?.callback_query?.from;
}

/**
 * The id of the button press an event stands for, to acknowledge it; undefined for a message.
 * @example telegramCallbackQueryIdOf(event) // '4382bfdwdsb323b2d9'
 */
export function telegramCallbackQueryIdOf(event: ChannelInboundEvent): string | undefined {
  return telegramUpdateSchema.safeParse(event.getRawEvent()).data?.callback_query?.id;
}

/**
 * The chat replies to an event go to: its `chat_id` attribute, else the sender's private chat
 * (a user's private chat with a bot has the user's id). Throws `ChannelError` when neither is
 * known.
 * @example telegramReplyChatIdOf(event) // 123456789
 */
export function telegramReplyChatIdOf(event: ChannelInboundEvent): number {
  const { chat_id } = event.getChannelData<Partial<TelegramChannelAttributes>>();
  if (typeof chat_id === 'number' && Number.isSafeInteger(chat_id)) return chat_id;
  const sender = event.getSenderForeignId();
  if (sender !== undefined && /^-?\d{1,16}$/.test(sender)) return Number(sender);
  throw new ChannelError('TELEGRAM_ERR_NO_CHAT', 'The event has no Telegram chat to reply to (no chat_id attribute nor a numeric sender id)');
}

/**
 * The incoming message of an event, when it is a message event.
 * @example telegramMessageOf(event)?.type // 'attachment'
 */
export function telegramMessageOf(event: ChannelInboundEvent): StdIncomingMessage | undefined {
  return (event as { message?: StdIncomingMessage }).message;
}
