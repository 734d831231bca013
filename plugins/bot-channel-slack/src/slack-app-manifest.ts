/** The bot scopes the channel needs, each for one reason. */
export const SLACK_BOT_SCOPES = [
  'chat:write', // chat.postMessage
  'im:history', // message.im: the messages of the app's DMs
  'app_mentions:read', // app_mention: mentions of the bot in channels
  'users:read', // users.info: name, avatar, locale and time zone of a new subscriber
  'files:read', // downloading the files subscribers send, files.info
] as const;

/** The events the app subscribes to: DMs to the bot and mentions of it. */
export const SLACK_BOT_EVENTS = ['message.im', 'app_mention'] as const;

/**
 * A Slack app manifest (api.slack.com/reference/manifests) for one source: a bot user with a
 * Messages tab users can write in, the scopes and events above, and `webhookUrl` as both the
 * Events API Request URL and the Interactivity Request URL (button clicks).
 * @example JSON.stringify(buildSlackAppManifest({ webhookUrl: 'https://bot.example/api/webhook/abc' }), null, 2)
 */
export function buildSlackAppManifest({ webhookUrl, appName = 'Bot' }: { webhookUrl: string; appName?: string }): Record<string, unknown> {
  return {
    display_information: { name: appName },
    features: {
      app_home: { home_tab_enabled: false, messages_tab_enabled: true, messages_tab_read_only_enabled: false },
      bot_user: { display_name: appName, always_online: true },
    },
    oauth_config: { scopes: { bot: [...SLACK_BOT_SCOPES] } },
    settings: {
      event_subscriptions: { request_url: webhookUrl, bot_events: [...SLACK_BOT_EVENTS] },
      interactivity: { is_enabled: true, request_url: webhookUrl },
      org_deploy_enabled: false,
      socket_mode_enabled: false,
      token_rotation_enabled: false,
    },
  };
}
