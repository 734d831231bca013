/**
 * The channel attributes of a Telegram event and of the subscriber made from it: the chat that
 * replies go to. In a private chat it is the user's own id; in a group it is the group's
 * (negative) id, while the subscriber is still the user who wrote. Telegram documents chat ids
 * as fitting in 52 bits, so a JSON number holds them exactly.
 * @example const { chat_id } = event.getChannelData<TelegramChannelAttributes>(); // 123456789
 */
export type TelegramChannelAttributes = {
  chat_id: number;
};

declare module '@bot-ai/types' {
  interface SubscriberChannelDict {
    telegram: TelegramChannelAttributes;
  }
}
