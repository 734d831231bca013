/**
 * The channel attributes of a Messenger event and subscriber: the Facebook Page the person wrote
 * to (the webhook entry's `id`). Replies need nothing else from the event: they go to the
 * sender's PSID with the source's Page access token.
 * @example const { page_id } = event.getChannelData<MessengerChannelAttributes>();
 */
export type MessengerChannelAttributes = {
  page_id: string;
};

declare module '@bot-ai/types' {
  interface SubscriberChannelDict {
    messenger: MessengerChannelAttributes;
  }
}
