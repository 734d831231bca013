/** The name of the built-in live-chat channel, as sources name it. */
export const WEB_CHANNEL_NAME = 'web';
