/** The channel's unique name: the handler's `name` and the `channel.name` of its subscribers. */
export const SAMPLE_CHANNEL_NAME = 'sample';
