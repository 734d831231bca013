import type { ConnectResult } from '@bot-ai/api';
import { callMessengerGraph } from './call-messenger-graph.ts';
import type { MessengerSettings } from './messenger-settings.schema.ts';

/**
 * The webhook fields the Page is subscribed to: what this channel decodes.
 * @example graphUrl(settings, 'me/subscribed_apps', { subscribed_fields: MESSENGER_SUBSCRIBED_FIELDS })
 */
export const MESSENGER_SUBSCRIBED_FIELDS = 'messages,messaging_postbacks';

/**
 * How long the subscription call may take.
 * @example await subscribeMessengerPage(settings, webhookUrl, MESSENGER_CONNECT_TIMEOUT_MS);
 */
export const MESSENGER_CONNECT_TIMEOUT_MS = 10_000;

/**
 * Subscribes the source's Page to this app's webhook (`POST {api_base_url}/{api_version}/me/subscribed_apps?subscribed_fields=messages,messaging_postbacks`
 * with the Page token). Meta takes the callback URL and verify token only in the App Dashboard,
 * so the result always carries them as instructions for the operator. Never throws: a refusal
 * or an outage is `connected: false` with the reason.
 * @example const result = await subscribeMessengerPage(settings, 'https://bot.example.com/api/webhook/ref-1');
 */
export async function subscribeMessengerPage(settings: MessengerSettings, webhookUrl: string, timeoutMs = MESSENGER_CONNECT_TIMEOUT_MS): Promise<ConnectResult> {
  const instructions = dashboardInstructions(webhookUrl, settings.verify_token);
  try {
    const answer = await callMessengerGraph(settings, {
      method: 'POST',
      path: 'me/subscribed_apps',
      query: { subscribed_fields: MESSENGER_SUBSCRIBED_FIELDS },
      timeoutMs,
    });
    if ((answer as { success?: unknown } | undefined)?.success !== true) {
      return { connected: false, message: `Messenger did not confirm the subscription (answer: ${JSON.stringify(answer) ?? 'empty'}).`, instructions };
    }
    return {
      connected: true,
      message: `The Page is subscribed to this app's webhook (${MESSENGER_SUBSCRIBED_FIELDS}). Finish in the Meta App Dashboard with the callback URL and verify token below.`,
      instructions,
    };
  } catch (error) {
    return { connected: false, message: `Messenger did not subscribe the Page: ${(error as Error).message}. Check the Page access token.`, instructions };
  }
}

function dashboardInstructions(webhookUrl: string, verifyToken: string): string {
  return [
    'Meta App Dashboard → your app → Messenger → Messenger API Settings → "Configure webhooks":',
    `  Callback URL: ${webhookUrl}`,
    `  Verify token: ${verifyToken || '(none yet: set this source\'s verify_token first; an empty token is never accepted)'}`,
    '  Click "Verify and save", then under "Webhook fields" subscribe messages and messaging_postbacks.',
    'The app secret (App settings → Basic) must be this source\'s app_secret, or every webhook is refused (401).',
  ].join('\n');
}
