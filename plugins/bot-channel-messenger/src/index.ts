/**
 * bot-channel-messenger: the Facebook Messenger channel of the bot host. The host discovers
 * `dist/index.channel.js`; this entry is for code that wants the class, its schemas or helpers.
 */
export { default, default as MessengerChannel, MESSENGER_MEDIA_SEND_INTERVAL_MS } from './index.channel.ts';
export { MESSENGER_CHANNEL_NAME } from './messenger-channel-name.ts';
export {
  messengerSettingsSchema,
  DEFAULT_MESSENGER_API_BASE_URL,
  DEFAULT_MESSENGER_API_VERSION,
  type MessengerSettings,
} from './messenger-settings.schema.ts';
export {
  messengerPayloadSchema,
  messengerEntrySchema,
  messengerMessagingSchema,
  messengerMessageSchema,
  messengerPostbackSchema,
  messengerAttachmentSchema,
  type MessengerPayload,
  type MessengerEntry,
  type MessengerMessaging,
  type MessengerMessage,
  type MessengerPostback,
  type MessengerAttachment,
} from './messenger-payload.schema.ts';
export { decodeMessengerEvents } from './decode-messenger-events.ts';
export { toMessengerIncomingMessage } from './decode-messenger-message.ts';
export { entryNoiseRule, messagingNoiseRule, type MessengerNoiseRule } from './messenger-noise-rules.ts';
export { MessengerEncoder, type MessengerOutgoingMessage, type MessengerButton, type MessengerGenericElement, type MessengerMediaType } from './messenger-encoder.ts';
export { MESSENGER_LIMITS } from './messenger-limits.ts';
export { signMessengerBody, checkMessengerSignature, MESSENGER_SIGNATURE_HEADER } from './check-messenger-signature.ts';
export { answerMessengerHandshake } from './answer-messenger-handshake.ts';
export { messengerRetryAfterMs, MESSENGER_RATE_LIMIT_DELAY_MS } from './messenger-retry-after.ts';
export { callMessengerGraph, graphUrl, MESSENGER_UNREACHABLE_CODE, type MessengerGraphCall } from './call-messenger-graph.ts';
export { postMessengerMessage, postMessengerTyping, MESSENGER_SEND_TIMEOUT_MS } from './post-messenger-message.ts';
export { fetchMessengerProfile, messengerProfileSchema, MESSENGER_PROFILE_FIELDS, MESSENGER_PROFILE_TIMEOUT_MS, type MessengerProfile } from './fetch-messenger-profile.ts';
export { buildMessengerSubscriber, requireMessengerSender } from './build-messenger-subscriber.ts';
export { subscribeMessengerPage, MESSENGER_SUBSCRIBED_FIELDS, MESSENGER_CONNECT_TIMEOUT_MS } from './subscribe-messenger-page.ts';
export type { MessengerChannelAttributes } from './messenger-channel-attributes.ts';
