import type { ConnectResult } from '@bot-ai/api';
import type { WhatsAppSettings } from './whatsapp-settings.schema.ts';

/**
 * What `connect()` answers: the Cloud API's webhook is set in the Meta App Dashboard only (no
 * API call sets it for a WhatsApp app), so the source is not connected by the host; the
 * instructions walk the operator through it, with this source's callback URL, and say which
 * settings are still missing. The verify token itself is never repeated (it is a secret).
 * @example const result = whatsAppConnectResult(settings, 'https://bot.example.com/api/webhook/ref-1'); // { connected: false, … }
 */
export function whatsAppConnectResult(settings: WhatsAppSettings, webhookUrl: string): ConnectResult {
  const missing = [
    settings.verify_token ? undefined : 'Verify token',
    settings.app_secret ? undefined : 'App secret',
    settings.access_token ? undefined : 'Access token',
    settings.phone_number_id ? undefined : 'Phone number ID',
  ].filter((name): name is string => name !== undefined);
  const steps = [
    ...(missing.length > 0 ? [`First fill in this source's settings: ${missing.join(', ')}; then save the source.`] : []),
    'Open your app in the Meta App Dashboard (https://developers.facebook.com/apps) → WhatsApp → Configuration.',
    'Under Webhook, click Edit.',
    `Callback URL: ${webhookUrl}`,
    "Verify token: the same value as this source's Verify token setting.",
    'Click Verify and save: Meta calls the callback URL and the bot host answers the challenge.',
    'Under Webhook fields, click Manage and subscribe to the `messages` field (nothing else is needed).',
    'Send a WhatsApp message to your business number: it appears in the bot host as an inbound event.',
  ];
  return {
    connected: false,
    message: 'WhatsApp webhooks are set in the Meta App Dashboard, not through the API: follow the steps below.',
    instructions: steps.map((step, index) => `${index + 1}. ${step}`).join('\n'),
  };
}
