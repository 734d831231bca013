import { ChannelError, type ChannelInboundEvent, type SubscriberCreateDto } from '@bot-ai/api';
import type { TelegramChannelAttributes } from './telegram-channel-attributes.ts';
import { TELEGRAM_CHANNEL_NAME } from './telegram-channel-name.ts';
import { telegramReplyChatIdOf, telegramSenderOf } from './telegram-event-data.ts';

/**
 * The names of a user, as `getChat` or the update's `from` give them.
 * @example const names: TelegramNames = { first_name: 'Ada', last_name: 'Lovelace' };
 */
export interface TelegramNames {
  first_name?: string | undefined;
  last_name?: string | undefined;
}

/**
 * The new subscriber behind an event. Names come from `profile` (the `getChat` answer) when
 * given, else from the update's `from`; the locale is the sender's `language_code` (an IETF tag
 * such as `en` or `pt-br`, set by the user's Telegram app) and the language its first part.
 * No avatar: Telegram's photo links embed the bot token, which must not be stored.
 * @example const dto = buildTelegramSubscriber(event, { first_name: 'Ada' }); // { foreignId: '123456789', firstName: 'Ada', … }
 */
export function buildTelegramSubscriber(event: ChannelInboundEvent, profile?: TelegramNames, now = new Date()): SubscriberCreateDto {
  const foreignId = event.getSenderForeignId();
  if (!foreignId) throw new ChannelError('TELEGRAM_ERR_NO_SENDER', 'The event has no sender id');
  const sender = telegramSenderOf(event);
  const names = profile ?? sender ?? {};
  const locale = sender?.language_code ?? '';
  const channel: TelegramChannelAttributes & { name: typeof TELEGRAM_CHANNEL_NAME } = { name: TELEGRAM_CHANNEL_NAME, chat_id: telegramReplyChatIdOf(event) };
  return {
    foreignId,
    firstName: names.first_name ?? '',
    lastName: names.last_name ?? '',
    assignedTo: null,
    assignedAt: null,
    lastvisit: event.getOccurredAt(),
    retainedFrom: now,
    avatar: null,
    channel,
    language: locale.split('-')[0] ?? '',
    locale,
    timezone: 0,
    gender: null,
    country: null,
    labels: [],
    source: event.getSourceId(),
  };
}
