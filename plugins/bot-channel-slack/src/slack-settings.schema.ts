import { z } from '@bot-ai/api';

/** Slack's Web API, unless a source points somewhere else (a proxy, a fake platform in tests). */
export const DEFAULT_SLACK_API_BASE_URL = 'https://slack.com/api';

/** Only http(s) URLs; `pattern` repeats the protocol rule in the published JSON Schema. */
const HTTP_URL_PATTERN = '^https?://';

function secret(title: string, description: string) {
  return z.string().default('').meta({ title, description, 'ui:widget': 'password' });
}

/**
 * The per-source settings of the Slack channel, shown in the admin UI as a form (secrets as
 * password fields). One source is one Slack app installed in one workspace. Read them with
 * `handler.getSettings(source)`, which applies the defaults.
 * @example const { bot_token, signing_secret } = slackSettingsSchema.parse(source.settings ?? {});
 */
export const slackSettingsSchema = z.object({
  bot_token: secret(
    'Bot User OAuth Token',
    'The `xoxb-…` token of your app: api.slack.com/apps → your app → OAuth & Permissions → OAuth Tokens (shown once the app is installed to the workspace). Sent as `Authorization: Bearer` with every Web API call and file download.',
  ),
  signing_secret: secret(
    'Signing Secret',
    'api.slack.com/apps → your app → Basic Information → App Credentials → Signing Secret. Every request Slack sends is checked against it (`X-Slack-Signature`); empty rejects every request.',
  ),
  api_base_url: z
    .url({ protocol: /^https?$/ })
    .default(DEFAULT_SLACK_API_BASE_URL)
    .meta({
      title: 'API base URL',
      description: "Base URL of Slack's Web API; methods are called as `{api_base_url}/chat.postMessage`. Keep the default unless you route Slack calls through a proxy.",
      pattern: HTTP_URL_PATTERN,
      // An endpoint: the host lets this channel's fetch reach exactly this URL's origin.
      'x-egress': true,
    }),
});

/** The parsed settings of one source. */
export type SlackSettings = z.output<typeof slackSettingsSchema>;
