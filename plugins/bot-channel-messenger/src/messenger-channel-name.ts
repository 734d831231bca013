/**
 * The channel's unique name: the handler's `name` and the `channel.name` of its subscribers.
 * @example if (dto.channel.name === MESSENGER_CHANNEL_NAME) { … }
 */
export const MESSENGER_CHANNEL_NAME = 'messenger';
