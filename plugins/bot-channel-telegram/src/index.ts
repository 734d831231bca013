/**
 * bot-channel-telegram: the Telegram Bot API channel of the bot host. The host discovers
 * `dist/index.channel.js`; this entry is for code that wants the class, its schemas or helpers.
 */
export { default, default as TelegramChannel, TELEGRAM_CHAT_SEND_INTERVAL_MS } from './index.channel.ts';
export { TELEGRAM_CHANNEL_NAME } from './telegram-channel-name.ts';
export { telegramSettingsSchema, telegramBotIdOf, DEFAULT_TELEGRAM_API_BASE_URL, type TelegramSettings } from './telegram-settings.schema.ts';
export {
  telegramUpdateSchema,
  telegramMessageSchema,
  telegramCallbackQuerySchema,
  telegramUserSchema,
  type TelegramUpdate,
  type TelegramMessage,
  type TelegramCallbackQuery,
  type TelegramUser,
} from './telegram-update.schema.ts';
export { decodeTelegramUpdate, type TelegramDecodeOptions } from './decode-telegram-update.ts';
export { telegramNoiseRuleOf, TELEGRAM_SERVICE_MESSAGE_FIELDS, TELEGRAM_DECODED_CONTENT_FIELDS, type TelegramNoiseRule } from './telegram-noise-rules.ts';
export { checkTelegramSecretToken, TELEGRAM_SECRET_TOKEN_HEADER } from './check-telegram-secret-token.ts';
export {
  TelegramEncoder,
  TELEGRAM_MAX_TEXT_LENGTH,
  TELEGRAM_MAX_CAPTION_LENGTH,
  TELEGRAM_MAX_CALLBACK_DATA_BYTES,
  type TelegramOutgoingMessage,
  type TelegramInlineButton,
  type TelegramInlineKeyboard,
} from './telegram-encoder.ts';
export { callTelegram, telegramRetryAfterMs, telegramMethodUrl, telegramFileUrl, TELEGRAM_CALL_TIMEOUT_MS, type TelegramApi } from './call-telegram.ts';
export { connectTelegramWebhook, TELEGRAM_ALLOWED_UPDATES, type TelegramWebhookTarget } from './connect-telegram-webhook.ts';
export { CallbackAcknowledger } from './callback-acknowledger.ts';
export type { TelegramChannelAttributes } from './telegram-channel-attributes.ts';
