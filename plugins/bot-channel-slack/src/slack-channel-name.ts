/** The channel's unique name: the handler's `name` and the `channel.name` of its subscribers. */
export const SLACK_CHANNEL_NAME = 'slack';
