import type { StdOutgoingMessageEnvelope, SubscriberCreateDto } from '@bot-ai/types';
import { CHANNEL_HANDLER_KIND, type ChannelHandlerKind } from '../brands.ts';
import type { ChannelInboundEvent } from '../events/channel-inbound-event.ts';
import type { ChannelSource } from '../source.ts';
import type { WebhookRequest } from '../webhook/webhook-request.ts';
import type { WebhookResponse } from '../webhook/webhook-response.ts';
import { channelAttachmentService } from '../services/channel-attachment-service.ts';
import { ChannelHandler, type SettingsSchema } from './channel-handler.ts';

/** Options of one send. */
export interface SendMessageOptions {
  /** Stable per outgoing message: pass it to platforms that deduplicate sends. */
  idempotencyKey: string;
}

/** The result of one send: the platform's id of the sent message. */
export interface SendMessageResult {
  mid: string;
}

/** An attachment a platform holds for an inbound message, for the host to download. */
export interface InboundAttachmentRef {
  url: string;
  name?: string;
  mimeType?: string;
  /** Headers the download needs (e.g. an Authorization header). */
  headers?: Record<string, string>;
}

/**
 * The base class of webhook channels. The host runs every method in the channel's sandbox
 * (a worker thread) with a time limit.
 * @example
 * @Injectable()
 * export default class SampleChannel extends HttpChannelHandler<typeof settingsSchema> {
 *   constructor() { super('sample', settingsSchema); }
 *   decode(req, source) { … }
 *   async doSendMessage(event, envelope, options) { … return { mid }; }
 *   getSubscriberData(event) { … }
 * }
 */
export abstract class HttpChannelHandler<S extends SettingsSchema = SettingsSchema> extends ChannelHandler<S> {
  static override readonly [CHANNEL_HANDLER_KIND]: ChannelHandlerKind | undefined = 'http';

  /**
   * Validates the platform payload at once and returns zero or more events. Must be cheap: no
   * network, no profile fetch, no file download. Throw `PayloadRejectedError` (or let a
   * `ZodError` escape) to answer 400.
   */
  abstract decode(req: WebhookRequest, source: ChannelSource): ChannelInboundEvent[] | Promise<ChannelInboundEvent[]>;

  /**
   * Sends one envelope to the platform and returns its message id. Throw
   * `UnsupportedOutgoingFormatError` for a type the channel cannot send and
   * `PlatformResponseError` for a non-success answer.
   */
  abstract doSendMessage(
    event: ChannelInboundEvent,
    envelope: StdOutgoingMessageEnvelope,
    options: SendMessageOptions,
  ): Promise<SendMessageResult>;

  /** The fields of a new subscriber, from the event alone; runs once per new subscriber. */
  abstract getSubscriberData(event: ChannelInboundEvent): SubscriberCreateDto | Promise<SubscriberCreateDto>;

  /**
   * Answers the platform's GET handshake. Default: 200 `ok`.
   * @example verifyWebhook(req, res, source) { res.status(ok ? 200 : 403).send(req.query.challenge ?? 'ok'); }
   */
  verifyWebhook(_req: WebhookRequest, res: WebhookResponse, _source: ChannelSource): void | Promise<void> {
    res.status(200).send('ok');
  }

  /**
   * Rejects a POST whose signature is wrong by throwing (`SignatureRejectedError`): the host
   * answers 401. Default: accepts every request; override it for any real platform.
   */
  verifySignature(_req: WebhookRequest, _res: WebhookResponse, _source: ChannelSource): void | Promise<void> {}

  /** Files the platform holds for an inbound message, so the host can download them. Default: none. */
  getMessageAttachments(_event: ChannelInboundEvent): InboundAttachmentRef[] | Promise<InboundAttachmentRef[]> {
    return [];
  }

  /**
   * The public URL of an outbound attachment. Default: the host's signed download URL. Override
   * when the platform needs files uploaded to its own media API.
   */
  getAttachmentPublicUrl(sourceId: string, attachmentRef: string): Promise<string> {
    return channelAttachmentService.getPublicUrl(sourceId, attachmentRef);
  }
}
