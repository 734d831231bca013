import { ChannelError, type ConnectResult } from '@bot-ai/api';
import { callTelegram, type TelegramApi } from './call-telegram.ts';

/**
 * The update types the channel decodes; everything else would only be noise to drop.
 * @example { url, secret_token, allowed_updates: TELEGRAM_ALLOWED_UPDATES }
 */
export const TELEGRAM_ALLOWED_UPDATES = ['message', 'callback_query'] as const;

/**
 * What `setWebhook` needs besides the API.
 * @example const target: TelegramWebhookTarget = { webhookUrl: 'https://bot.example.com/api/webhook/abc', secretToken: 's3cret' };
 */
export interface TelegramWebhookTarget {
  /** The source's public webhook URL (HTTPS, on port 443, 80, 88 or 8443: Telegram's rule). */
  webhookUrl: string;
  secretToken: string;
}

/**
 * Points the bot's updates at `webhookUrl` with `setWebhook { url, secret_token, allowed_updates }`.
 * Telegram then posts every `message` and `callback_query` there, with the secret token in the
 * `X-Telegram-Bot-Api-Secret-Token` header. A missing bot token or secret token throws a
 * `ChannelError` before any call; a refusal by Telegram (a URL that is not HTTPS, a wrong token)
 * is `{ connected: false }` with Telegram's reason; an unreachable API throws.
 * @example await connectTelegramWebhook(api, { webhookUrl: 'https://bot.example.com/api/webhook/abc', secretToken: 's3cret' })
 * // { connected: true, message: 'Telegram now posts message and callback_query updates to https://bot.example.com/api/webhook/abc' }
 */
export async function connectTelegramWebhook(api: TelegramApi, target: TelegramWebhookTarget): Promise<ConnectResult> {
  if (!api.botToken) throw new ChannelError('TELEGRAM_ERR_NO_BOT_TOKEN', 'Set the bot token (from @BotFather) before connecting');
  if (!target.secretToken) {
    throw new ChannelError('TELEGRAM_ERR_NO_SECRET_TOKEN', 'Set the webhook secret token (1–256 of A–Z a–z 0–9 _ -) before connecting: without it every update would be refused');
  }
  try {
    await callTelegram(api, 'setWebhook', { url: target.webhookUrl, secret_token: target.secretToken, allowed_updates: TELEGRAM_ALLOWED_UPDATES });
  } catch (error) {
    const { code, status } = error as { code?: unknown; status?: unknown };
    if (code !== 'BOT_ERR_CHANNEL_PLATFORM_STATUS') throw error;
    return { connected: false, message: `Telegram refused setWebhook (HTTP ${String(status)}): ${describeRefusal(error as Error)}` };
  }
  return { connected: true, message: `Telegram now posts ${TELEGRAM_ALLOWED_UPDATES.join(' and ')} updates to ${target.webhookUrl}` };
}

/** Telegram's own words (`description`) from the answer the error carries, else the error's message. */
function describeRefusal(error: Error): string {
  const start = error.message.indexOf('{');
  if (start >= 0) {
    try {
      const { description } = JSON.parse(error.message.slice(start)) as { description?: unknown };
      if (typeof description === 'string' && description) return description;
    } catch {
      // The answer was cut or is not JSON: the message as it is.
    }
  }
  return error.message;
}
