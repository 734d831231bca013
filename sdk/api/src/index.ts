/**
 * @bot-ai/api: what `bot-channel-*` plugins are written against. See README.md in this package
 * for the plugin author's guide.
 */
export { z } from 'zod';
export * from '@bot-ai/types';
export { CHANNEL_HANDLER_KIND, INJECTABLE, type ChannelHandlerKind } from './brands.ts';
export { DEFAULT_CHANNEL_CAPABILITIES } from './capabilities.ts';
export { Injectable, isInjectable } from './decorators/injectable.ts';
export { ExtensionInject, applyExtensionInjections } from './decorators/extension-inject.ts';
export { ChannelOutboundMessageEncoder } from './encoder/channel-outbound-message-encoder.ts';
export {
  ChannelError,
  EgressError,
  PayloadRejectedError,
  PlatformResponseError,
  retryAfterMs,
  SignatureRejectedError,
  UnsupportedOutgoingFormatError,
} from './errors.ts';
export { ChannelInboundEvent, type PlainInboundEvent } from './events/channel-inbound-event.ts';
export type { InboundEventContext } from './events/inbound-event-context.ts';
export { MessageInboundEvent } from './events/message-inbound-event.ts';
export { SyntheticMessageInboundEvent } from './events/synthetic-message-inbound-event.ts';
export { rebuildInboundEvent } from './events/rebuild-inbound-event.ts';
export { ChannelHandler, type SettingsSchema } from './handlers/channel-handler.ts';
export {
  HttpChannelHandler,
  type ConnectContext,
  type ConnectResult,
  type InboundAttachmentRef,
  type SendMessageOptions,
  type SendMessageResult,
} from './handlers/http-channel-handler.ts';
export { WebSocketChannelHandler, type WebSocketFrame } from './handlers/websocket-channel-handler.ts';
export { channelAttachmentService } from './services/channel-attachment-service.ts';
export {
  currentSourceId,
  installedHostServices,
  installHostServices,
  runForSource,
  type EgressRequest,
  type EgressResponse,
  type HostServices,
} from './services/host-services.ts';
export { fetch } from './egress/fetch.ts';
export { callPlatform, type PlatformCallOptions } from './platform/call-platform.ts';
export { SendPacer } from './platform/send-pacer.ts';
export { constantTimeEqual } from './webhook/constant-time-equal.ts';
export { checkHmacSha256, hmacSha256Hex } from './webhook/hmac-signature.ts';
export { directFetchService } from './egress/direct-fetch-service.ts';
export type { ChannelSource } from './source.ts';
export type { WebhookRequest } from './webhook/webhook-request.ts';
export { WebhookResponse, type PlainWebhookResponse } from './webhook/webhook-response.ts';
