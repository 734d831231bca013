import { z } from '@bot-ai/api';

/**
 * Where the Telegram Bot API lives unless a source says otherwise (a local Bot API server, a proxy).
 * @example telegramMethodUrl(DEFAULT_TELEGRAM_API_BASE_URL, token, 'getMe')
 */
export const DEFAULT_TELEGRAM_API_BASE_URL = 'https://api.telegram.org';

/** Only http(s) URLs; `pattern` repeats the protocol rule in the published JSON Schema. */
const HTTP_URL_PATTERN = '^https?://';

/**
 * A bot token as @BotFather hands it out, `<bot id>:<secret>`, or empty (not set yet). The token
 * becomes part of every API path, so a pasted space or slash is refused here rather than
 * producing a request to another path.
 */
const BOT_TOKEN_PATTERN = '^(\\d+:[A-Za-z0-9_-]+)?$';

/** What `setWebhook` accepts as `secret_token`: 1–256 of `A-Z a-z 0-9 _ -` (or empty: not set yet). */
const SECRET_TOKEN_PATTERN = '^[A-Za-z0-9_-]{0,256}$';

function secret(title: string, description: string, pattern: string) {
  return z
    .string()
    .regex(new RegExp(pattern))
    .default('')
    .meta({ title, description, pattern, 'ui:widget': 'password' });
}

/**
 * The per-source settings of the Telegram channel, shown in the admin UI as a form (secrets as
 * password fields). Read them with `handler.getSettings(source)`, which applies the defaults.
 * @example const { bot_token, secret_token, api_base_url } = telegramSettingsSchema.parse(source.settings ?? {});
 */
export const telegramSettingsSchema = z.object({
  bot_token: secret(
    'Bot token',
    'The token @BotFather gives when you create the bot with /newbot (or later with /token), e.g. `123456789:AAH…`. Every API call carries it; keep it secret.',
    BOT_TOKEN_PATTERN,
  ),
  secret_token: secret(
    'Webhook secret token',
    'A secret you choose: 1 to 256 characters among A–Z, a–z, 0–9, `_` and `-`. "Connect" passes it to Telegram\'s setWebhook, and Telegram then sends it in the `X-Telegram-Bot-Api-Secret-Token` header of every update; updates without it are refused. Empty refuses every update.',
    SECRET_TOKEN_PATTERN,
  ),
  api_base_url: z
    .url({ protocol: /^https?$/ })
    .default(DEFAULT_TELEGRAM_API_BASE_URL)
    .meta({
      title: 'Bot API base URL',
      description:
        'Base URL of the Telegram Bot API (http or https), without `/bot<token>`: `https://api.telegram.org` unless you run your own Bot API server or a proxy. Methods are called at `{api_base_url}/bot<token>/<method>`, files downloaded from `{api_base_url}/file/bot<token>/<path>`.',
      pattern: HTTP_URL_PATTERN,
      // An endpoint: the host lets this channel's fetch reach exactly this URL's origin.
      'x-egress': true,
    }),
});

/**
 * The parsed settings of one source.
 * @example const settings: TelegramSettings = telegramSettingsSchema.parse({ bot_token, secret_token });
 */
export type TelegramSettings = z.output<typeof telegramSettingsSchema>;

/**
 * The bot's own user id: the part of its token before the colon (public: it is the id other
 * users see). Undefined while no token is set.
 * @example telegramBotIdOf('123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw') // '123456789'
 */
export function telegramBotIdOf(botToken: string): string | undefined {
  return /^(\d+):/.exec(botToken)?.[1];
}
