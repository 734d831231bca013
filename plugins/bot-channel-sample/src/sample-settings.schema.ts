import { z } from '@bot-ai/api';

/** Where the sample platform's API lives unless a source says otherwise. */
export const DEFAULT_SAMPLE_API_URL = 'https://platform.example/api';

/** Only http(s) URLs; `pattern` repeats the protocol rule in the published JSON Schema. */
const HTTP_URL_PATTERN = '^https?://';

function secret(title: string, description: string) {
  return z.string().default('').meta({ title, description, 'ui:widget': 'password' });
}

/**
 * The per-source settings of the sample channel, shown in the admin UI as a form (secrets as
 * password fields). Read them with `handler.getSettings(source)`, which applies the defaults.
 * @example const { api_url, api_key } = sampleSettingsSchema.parse(source.settings ?? {});
 */
export const sampleSettingsSchema = z.object({
  api_url: z
    .url({ protocol: /^https?$/ })
    .default(DEFAULT_SAMPLE_API_URL)
    .meta({
      title: 'API URL',
      description: 'Base URL of the platform API (http or https); messages are sent to `{api_url}/messages`.',
      pattern: HTTP_URL_PATTERN,
      // An endpoint: the host lets this channel's fetch reach exactly this URL's origin.
      'x-egress': true,
    }),
  api_key: secret('API key', 'Sent as `Authorization: Bearer <api_key>` with every outgoing message.'),
  verify_token: secret(
    'Verify token',
    'The platform sends it as the `verify_token` query parameter of the GET handshake; empty never matches.',
  ),
  webhook_secret: secret(
    'Webhook secret',
    'Key of the HMAC-SHA256 the platform puts in the `X-Bot-Signature` header; empty rejects every POST.',
  ),
  tenant_id: z
    .string()
    .default('')
    .meta({
      title: 'Tenant id',
      description: 'When set, only events whose `tenant_id` equals it are accepted; empty accepts every tenant.',
    }),
});

/** The parsed settings of one source. */
export type SampleSettings = z.output<typeof sampleSettingsSchema>;
