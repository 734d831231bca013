import { z } from '@bot-ai/api';

/** The Graph API, which serves the WhatsApp Cloud API, unless a source says otherwise. */
export const DEFAULT_WHATSAPP_API_BASE_URL = 'https://graph.facebook.com';

/** The Graph API version used unless a source says otherwise. */
export const DEFAULT_WHATSAPP_API_VERSION = 'v21.0';

/** Only http(s) URLs; `pattern` repeats the protocol rule in the published JSON Schema. */
const HTTP_URL_PATTERN = '^https?://';

/** `v21.0`: the version goes into every API path, so nothing else may. */
const API_VERSION_PATTERN = '^v[0-9]+\\.[0-9]+$';

/** Digits only (or empty): the id goes into the send path, so nothing else may. */
const PHONE_NUMBER_ID_PATTERN = '^[0-9]*$';

function secret(title: string, description: string) {
  return z.string().default('').meta({ title, description, 'ui:widget': 'password' });
}

/**
 * The per-source settings of the WhatsApp channel, shown in the admin UI as a form (secrets as
 * password fields). Read them with `handler.getSettings(source)`, which applies the defaults.
 * @example const { access_token, phone_number_id } = whatsAppSettingsSchema.parse(source.settings ?? {});
 */
export const whatsAppSettingsSchema = z.object({
  access_token: secret(
    'Access token',
    'Sent as `Authorization: Bearer <token>` with every API call. Use a permanent System User token with the ' +
      '`whatsapp_business_messaging` permission (Meta Business Suite → Business settings → Users → System users → ' +
      'Generate new token); the temporary token of App Dashboard → WhatsApp → API Setup expires after 24 hours.',
  ),
  app_secret: secret(
    'App secret',
    'Key of the HMAC-SHA256 in the `X-Hub-Signature-256` header of every webhook POST: App Dashboard → ' +
      'App settings → Basic → App secret (Show). Empty rejects every POST.',
  ),
  verify_token: secret(
    'Verify token',
    'A string you choose and type again in App Dashboard → WhatsApp → Configuration → Webhook → Verify token; ' +
      'Meta sends it as `hub.verify_token` when you save the callback URL. Empty never matches.',
  ),
  phone_number_id: z
    .string()
    .regex(new RegExp(PHONE_NUMBER_ID_PATTERN))
    .default('')
    .meta({
      title: 'Phone number ID',
      description:
        'The business phone number this source answers from: App Dashboard → WhatsApp → API Setup → Phone number ID ' +
        '(digits, not the phone number itself). Messages sent to another number of the app are dropped; empty accepts ' +
        'every number and answers from the one each message was sent to.',
      pattern: PHONE_NUMBER_ID_PATTERN,
    }),
  api_version: z
    .string()
    .regex(new RegExp(API_VERSION_PATTERN))
    .default(DEFAULT_WHATSAPP_API_VERSION)
    .meta({
      title: 'Graph API version',
      description: 'The Graph API version in every API path, such as `v21.0`.',
      pattern: API_VERSION_PATTERN,
    }),
  api_base_url: z
    .url({ protocol: /^https?$/ })
    .default(DEFAULT_WHATSAPP_API_BASE_URL)
    .meta({
      title: 'API base URL',
      description:
        'Base URL of the Graph API (http or https); messages go to `{api_base_url}/{api_version}/{phone_number_id}/messages`. ' +
        'Change it only for a test double or a proxy.',
      pattern: HTTP_URL_PATTERN,
      // An endpoint: the host lets this channel's fetch reach exactly this URL's origin.
      'x-egress': true,
    }),
});

/** The parsed settings of one source. */
export type WhatsAppSettings = z.output<typeof whatsAppSettingsSchema>;
