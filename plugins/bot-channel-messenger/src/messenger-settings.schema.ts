import { z } from '@bot-ai/api';

/**
 * Where the Graph API lives unless a source says otherwise.
 * @example graphUrl({ api_base_url: DEFAULT_MESSENGER_API_BASE_URL, api_version: 'v21.0' }, 'me/messages')
 */
export const DEFAULT_MESSENGER_API_BASE_URL = 'https://graph.facebook.com';

/**
 * The Graph API version the channel was written against; every path starts with it.
 * @example `${DEFAULT_MESSENGER_API_BASE_URL}/${DEFAULT_MESSENGER_API_VERSION}/me/messages`
 */
export const DEFAULT_MESSENGER_API_VERSION = 'v21.0';

/** Only http(s) URLs; `pattern` repeats the protocol rule in the published JSON Schema. */
const HTTP_URL_PATTERN = '^https?://';

/** A Graph API version as Meta names them: `v21.0`. */
const API_VERSION_PATTERN = '^v\\d+\\.\\d+$';

function secret(title: string, description: string) {
  return z.string().default('').meta({ title, description, 'ui:widget': 'password' });
}

/**
 * The per-source settings of the Messenger channel, shown in the admin UI as a form (secrets as
 * password fields). Read them with `handler.getSettings(source)`, which applies the defaults.
 * @example const { page_access_token, api_version } = messengerSettingsSchema.parse(source.settings ?? {});
 */
export const messengerSettingsSchema = z.object({
  page_access_token: secret(
    'Page access token',
    'Sent as `Authorization: Bearer …` with every Graph API call (sends, typing, profiles, connect). ' +
      'Meta App Dashboard → your app → Messenger → Messenger API Settings → "Generate access tokens": add your Page and generate its token.',
  ),
  app_secret: secret(
    'App secret',
    'Key of the HMAC-SHA256 in the `X-Hub-Signature-256` header of every webhook POST; empty rejects every POST. ' +
      'Meta App Dashboard → App settings → Basic → App secret ("Show").',
  ),
  verify_token: secret(
    'Verify token',
    'A string you choose and enter as "Verify token" in Meta App Dashboard → Messenger → Messenger API Settings → Configure webhooks; ' +
      'Meta sends it back as `hub.verify_token` when it checks the callback URL. Empty never matches.',
  ),
  page_id: z
    .string()
    .regex(/^\d*$/, 'A Page id is digits only')
    .default('')
    .meta({
      title: 'Page id',
      description:
        'Optional. When set, webhook entries for any other Page are dropped (an app can be subscribed to several Pages). ' +
        "Your Page → About → Page transparency, or the id shown next to the Page in the app's Messenger API Settings. Empty accepts every Page.",
    }),
  api_version: z
    .string()
    .regex(new RegExp(API_VERSION_PATTERN), 'A Graph API version such as v21.0')
    .default(DEFAULT_MESSENGER_API_VERSION)
    .meta({
      title: 'Graph API version',
      description: 'The version in every Graph API path, e.g. `v21.0` (`{api_base_url}/{api_version}/me/messages`).',
      pattern: API_VERSION_PATTERN,
    }),
  api_base_url: z
    .url({ protocol: /^https?$/ })
    .default(DEFAULT_MESSENGER_API_BASE_URL)
    .meta({
      title: 'Graph API base URL',
      description: 'Base URL of the Graph API (http or https), without the version. Change it only for a proxy or a test platform.',
      pattern: HTTP_URL_PATTERN,
      // An endpoint: the host lets this channel's fetch reach exactly this URL's origin.
      'x-egress': true,
    }),
});

/**
 * The parsed settings of one source.
 * @example const settings: MessengerSettings = channel.getSettings(source);
 */
export type MessengerSettings = z.output<typeof messengerSettingsSchema>;
