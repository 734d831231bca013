import type { StdIncomingMessage, StdOutgoingMessageEnvelope, SubscriberCreateDto } from '@bot-ai/types';
import { ChannelError } from '../errors.ts';
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

/**
 * Where the host downloads one file of an inbound message, in the order of the message's
 * attachments. The host performs the download under the channel's egress rules, keeps the file
 * and gives workflows its own link: the platform's URL and headers are never stored.
 */
export interface InboundAttachmentRef {
  url: string;
  name?: string;
  mimeType?: string;
  /** Headers the download needs (e.g. an Authorization header). */
  headers?: Record<string, string>;
}

/** What the host knows when an operator asks a channel to connect a source to its platform. */
export interface ConnectContext {
  /** The source's public webhook URL, which the platform must call (from BOT_PUBLIC_URL). */
  webhookUrl: string;
}

/**
 * The outcome of `connect()`, shown to the operator: whether the platform now calls the webhook,
 * what happened in words, and any text to copy to the platform's side (an app manifest).
 */
export interface ConnectResult {
  connected: boolean;
  message: string;
  /** Text for the operator to copy, such as an app manifest; shown as is. */
  instructions?: string;
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

  /**
   * The fields of a new subscriber; runs once per new subscriber, before its first run. May ask
   * the platform's profile API through `fetch` (name, avatar, locale), but must fall back to what
   * the event holds when that fails: a profile outage must not stop the conversation.
   */
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

  /**
   * Where to download the files of an inbound attachment message, one per attachment, in order.
   * The host calls it after the event is stored and before the workflow runs; it may use `fetch`
   * (Telegram's `getFile`, WhatsApp's media lookup). Default: each attachment's own `url`.
   */
  getMessageAttachments(event: ChannelInboundEvent): InboundAttachmentRef[] | Promise<InboundAttachmentRef[]> {
    const message = (event as { message?: StdIncomingMessage }).message;
    if (message?.type !== 'attachment') return [];
    return message.data.attachments.flatMap((file) => (file.url ? [{ url: file.url, ...(file.name ? { name: file.name } : {}), ...(file.mimeType ? { mimeType: file.mimeType } : {}) }] : []));
  }

  /**
   * Shows the subscriber that a reply is being prepared. The host calls it when a run starts on
   * an event of a channel whose capabilities say `typingIndicator: true`, and does not wait for
   * it nor retry it. Default: nothing.
   */
  sendTypingIndicator(_event: ChannelInboundEvent): Promise<void> {
    return Promise.resolve();
  }

  /**
   * Connects a source to its platform from the admin panel, where the platform allows it: e.g.
   * Telegram's `setWebhook` with `context.webhookUrl`, or an app manifest for the operator to
   * paste. The panel offers it only when the channel overrides it.
   */
  connect(_source: ChannelSource, _context: ConnectContext): Promise<ConnectResult> {
    return Promise.reject(new ChannelError('BOT_ERR_CHANNEL_CONNECT_UNSUPPORTED', 'This channel has no connect step: set the webhook up on the platform by hand'));
  }

  /**
   * The public URL of an outbound attachment. Default: the host's signed download URL. Override
   * when the platform needs files uploaded to its own media API.
   */
  getAttachmentPublicUrl(sourceId: string, attachmentRef: string): Promise<string> {
    return channelAttachmentService.getPublicUrl(sourceId, attachmentRef);
  }
}
