import type { TelegramMessage, TelegramUpdate } from './telegram-update.schema.ts';

/**
 * Why an update produces no event. Each rule is named so that a dropped update can be explained
 * (and tested) by name:
 * - `not-subscribed-update`: neither `message` nor `callback_query` (`edited_message`,
 *   `channel_post`, `my_chat_member`, `poll_answer`, …). `connect()` asks Telegram for the two
 *   only, but a webhook set by hand may deliver any type.
 * - `no-sender`: a message without `from` (Telegram leaves it out for channel messages).
 * - `from-bot`: a message or button press by a bot (`from.is_bot`), including the anonymous
 *   admin stand-in `@GroupAnonymousBot`: bots must not talk to bots in loops.
 * - `service-message`: a chat event dressed as a message (members joining or leaving, a new
 *   title or photo, a pinned message, a payment, a forum topic, …): nobody wrote anything.
 * - `no-decodable-content`: a message from a person with nothing the channel decodes (a sticker,
 *   a poll, a contact, a dice, a game, a story): skipped rather than rejected.
 * - `callback-without-data`: a button press with no `data` (a game's play button).
 * @example const rule: TelegramNoiseRule | undefined = telegramNoiseRuleOf(update);
 */
export type TelegramNoiseRule =
  | 'not-subscribed-update'
  | 'no-sender'
  | 'from-bot'
  | 'service-message'
  | 'no-decodable-content'
  | 'callback-without-data';

/**
 * The `Message` fields that mark a service message (https://core.telegram.org/bots/api#message),
 * as of Bot API 9.x. A message that holds one of them is a chat event, not something a person wrote.
 * @example TELEGRAM_SERVICE_MESSAGE_FIELDS.some((field) => field in message)
 */
export const TELEGRAM_SERVICE_MESSAGE_FIELDS: readonly string[] = [
  'new_chat_members',
  'left_chat_member',
  'new_chat_title',
  'new_chat_photo',
  'delete_chat_photo',
  'group_chat_created',
  'supergroup_chat_created',
  'channel_chat_created',
  'message_auto_delete_timer_changed',
  'migrate_to_chat_id',
  'migrate_from_chat_id',
  'pinned_message',
  'successful_payment',
  'refunded_payment',
  'users_shared',
  'chat_shared',
  'gift',
  'unique_gift',
  'connected_website',
  'write_access_allowed',
  'passport_data',
  'proximity_alert_triggered',
  'boost_added',
  'chat_background_set',
  'checklist_tasks_done',
  'checklist_tasks_added',
  'direct_message_price_changed',
  'forum_topic_created',
  'forum_topic_edited',
  'forum_topic_closed',
  'forum_topic_reopened',
  'general_forum_topic_hidden',
  'general_forum_topic_unhidden',
  'giveaway_created',
  'giveaway_winners',
  'giveaway_completed',
  'paid_message_price_changed',
  'video_chat_scheduled',
  'video_chat_started',
  'video_chat_ended',
  'video_chat_participants_invited',
  'web_app_data',
];

/**
 * The `Message` fields the channel turns into an incoming message (`caption` goes with a file).
 * @example TELEGRAM_DECODED_CONTENT_FIELDS.some((field) => message[field] !== undefined)
 */
export const TELEGRAM_DECODED_CONTENT_FIELDS: readonly string[] = ['text', 'photo', 'document', 'audio', 'voice', 'video', 'video_note', 'location', 'venue'];

/**
 * The noise rule an update falls under, or undefined when it carries a message to decode.
 * @example telegramNoiseRuleOf({ update_id: 1, edited_message: { … } }) // 'not-subscribed-update'
 */
export function telegramNoiseRuleOf(update: TelegramUpdate): TelegramNoiseRule | undefined {
  if (update.message) return messageNoiseRule(update.message);
  if (update.callback_query) {
    if (update.callback_query.from.is_bot === true) return 'from-bot';
    return update.callback_query.data === undefined ? 'callback-without-data' : undefined;
  }
  return 'not-subscribed-update';
}

function messageNoiseRule(message: TelegramMessage): TelegramNoiseRule | undefined {
  if (!message.from) return 'no-sender';
  if (message.from.is_bot === true) return 'from-bot';
  // Checked before the content: a pinned-message notice has no text of its own, but one that did
  // would still be a chat event.
  if (TELEGRAM_SERVICE_MESSAGE_FIELDS.some((field) => field in message)) return 'service-message';
  if (!TELEGRAM_DECODED_CONTENT_FIELDS.some((field) => message[field] !== undefined)) return 'no-decodable-content';
  return undefined;
}
