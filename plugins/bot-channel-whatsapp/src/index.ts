/**
 * bot-channel-whatsapp: the WhatsApp Business Cloud API channel of the bot host. The host
 * discovers `dist/index.channel.js`; this entry is for code that wants the class, its schemas or
 * its helpers (signing a body, decoding a payload, encoding a message).
 */
export { default, default as WhatsAppChannel } from './index.channel.ts';
export { WHATSAPP_CHANNEL_NAME } from './whatsapp-channel-name.ts';
export {
  whatsAppSettingsSchema,
  DEFAULT_WHATSAPP_API_BASE_URL,
  DEFAULT_WHATSAPP_API_VERSION,
  type WhatsAppSettings,
} from './whatsapp-settings.schema.ts';
export {
  whatsAppPayloadSchema,
  whatsAppMessagesValueSchema,
  whatsAppMessageSchema,
  whatsAppContactSchema,
  WHATSAPP_WEBHOOK_OBJECT,
  WHATSAPP_MESSAGES_FIELD,
  type WhatsAppPayload,
  type WhatsAppMessagesValue,
  type WhatsAppMessage,
  type WhatsAppContact,
} from './whatsapp-payload.schema.ts';
export { decodeWhatsAppEvents } from './decode-whatsapp-events.ts';
export { changeNoiseRule, messageNoiseRule, type WhatsAppNoiseRule } from './whatsapp-noise-rules.ts';
export { signWhatsAppBody, checkWhatsAppSignature, WHATSAPP_SIGNATURE_HEADER, WHATSAPP_SIGNATURE_PREFIX } from './check-whatsapp-signature.ts';
export { answerWhatsAppHandshake } from './answer-whatsapp-handshake.ts';
export {
  WhatsAppEncoder,
  WHATSAPP_LIMITS,
  WHATSAPP_LIST_BUTTON_LABEL,
  WHATSAPP_MAX_TEXT_LENGTH,
  type WhatsAppOutgoingMessage,
  type WhatsAppInteractive,
  type WhatsAppMediaObject,
} from './whatsapp-encoder.ts';
export {
  whatsAppRetryAfterMs,
  WHATSAPP_PAIR_RATE_LIMIT_CODE,
  WHATSAPP_PAIR_RATE_RETRY_MS,
  WHATSAPP_THROUGHPUT_LIMIT_CODE,
  WHATSAPP_THROUGHPUT_RETRY_MS,
} from './whatsapp-retry-delay.ts';
export { whatsAppApiUrl, callWhatsAppApi, WHATSAPP_CALL_TIMEOUT_MS, WHATSAPP_UNREACHABLE_CODE, type WhatsAppApi } from './call-whatsapp-api.ts';
export { postWhatsAppMessage, postWhatsAppTyping, type WhatsAppSendRequest } from './post-whatsapp-message.ts';
export { lookupWhatsAppMedia } from './lookup-whatsapp-media.ts';
export { buildWhatsAppSubscriber } from './build-whatsapp-subscriber.ts';
export { whatsAppConnectResult } from './whatsapp-connect.ts';
export type { WhatsAppChannelAttributes } from './whatsapp-channel-attributes.ts';
