/**
 * The channel is disabled, failed to start, or is not registered: its traffic is answered 503
 * so the platform retries later.
 */
export class ChannelUnavailableError extends Error {
  readonly code = 'BOT_ERR_CHANNEL_UNAVAILABLE';
  readonly status = 503;

  constructor(readonly channel: string) {
    super(`Channel "${channel}" is not running`);
    this.name = 'ChannelUnavailableError';
  }
}
