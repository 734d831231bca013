/**
 * The channel's unique name: the handler's `name` and the `channel.name` of its subscribers.
 * @example if (event.getChannelName() === TELEGRAM_CHANNEL_NAME) { … }
 */
export const TELEGRAM_CHANNEL_NAME = 'telegram';
