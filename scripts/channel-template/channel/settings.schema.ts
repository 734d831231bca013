import { z } from '@bot-ai/api';

/** A secret: a password field in the admin UI, masked by the API, kept when a PATCH omits it. */
function secret(title: string, description: string) {
  return z.string().default('').meta({ title, description, 'ui:widget': 'password' });
}

/**
 * The per-source settings of the __name__ channel; the admin UI renders a form from them.
 * Change: the default URL, and add what your platform needs (account ids, …), each with a default
 * and a title. Keep this file's name: `*.settings.ts` files are reserved for global settings.
 * @example const { api_url, api_key, webhook_secret } = settingsSchema.parse(source.settings ?? {});
 */
export const settingsSchema = z.object({
  api_url: z
    .url({ protocol: /^https?$/ })
    .default('https://api.__name__.example')
    // `x-egress`: an endpoint. The host lets this channel's fetch reach exactly this URL's origin
    // (the operator's choice, loopback included); other hosts go in package.json `bot.egress`.
    .meta({ title: 'API URL', description: 'Base URL of the platform API; messages are sent to `{api_url}/messages`.', 'x-egress': true }),
  api_key: secret('API key', 'Sent as `Authorization: Bearer <api_key>` with every outgoing message.'),
  webhook_secret: secret('Webhook secret', 'Key of the HMAC-SHA256 signature header of incoming webhooks; empty rejects every POST.'),
});

/** The parsed settings of one source. */
export type Settings = z.output<typeof settingsSchema>;
