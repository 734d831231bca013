import {
  ChannelError,
  DEFAULT_CHANNEL_CAPABILITIES,
  ExtensionInject,
  HttpChannelHandler,
  Injectable,
  type ChannelCapabilities,
  type ChannelInboundEvent,
  type ChannelSource,
  type ConnectContext,
  type ConnectResult,
  type InboundAttachmentRef,
  type SendMessageOptions,
  type SendMessageResult,
  type StdIncomingMessage,
  type StdOutgoingMessageEnvelope,
  type SubscriberCreateDto,
  type WebhookRequest,
  type WebhookResponse,
} from '@bot-ai/api';
import { answerWhatsAppHandshake } from './answer-whatsapp-handshake.ts';
import { buildWhatsAppSubscriber } from './build-whatsapp-subscriber.ts';
import { WHATSAPP_CALL_TIMEOUT_MS } from './call-whatsapp-api.ts';
import { checkWhatsAppSignature, WHATSAPP_SIGNATURE_HEADER } from './check-whatsapp-signature.ts';
import { decodeWhatsAppEvents } from './decode-whatsapp-events.ts';
import { lookupWhatsAppMedia } from './lookup-whatsapp-media.ts';
import { postWhatsAppMessage, postWhatsAppTyping } from './post-whatsapp-message.ts';
import type { WhatsAppChannelAttributes } from './whatsapp-channel-attributes.ts';
import { WHATSAPP_CHANNEL_NAME } from './whatsapp-channel-name.ts';
import { whatsAppConnectResult } from './whatsapp-connect.ts';
import { WhatsAppEncoder, WHATSAPP_MAX_TEXT_LENGTH } from './whatsapp-encoder.ts';
import { whatsAppSettingsSchema, type WhatsAppSettings } from './whatsapp-settings.schema.ts';

/** Every WhatsApp message id starts so; events the host made up (a test run) have other ids. */
const WAMID_PREFIX = 'wamid.';

/**
 * The WhatsApp Business Cloud API channel: Meta's GET verify handshake, `X-Hub-Signature-256`
 * signed POSTs, sends, typing indicators and media lookups through the Graph API. See this
 * package's README for the wire formats and the set-up in the Meta App Dashboard.
 * @example
 * const channel = applyExtensionInjections(new WhatsAppChannel());
 * const events = await channel.decode(req, source);
 */
@Injectable()
export default class WhatsAppChannel extends HttpChannelHandler<typeof whatsAppSettingsSchema> {
  @ExtensionInject(WhatsAppEncoder) protected readonly encoder!: WhatsAppEncoder;

  /** How long one Graph API call may take; lower it in tests. */
  callTimeoutMs = WHATSAPP_CALL_TIMEOUT_MS;

  constructor() {
    super(WHATSAPP_CHANNEL_NAME, whatsAppSettingsSchema);
  }

  /** 200 with `hub.challenge` when `hub.mode=subscribe` and `hub.verify_token` matches, else 403. */
  override verifyWebhook(req: WebhookRequest, res: WebhookResponse, source: ChannelSource): void {
    answerWhatsAppHandshake(req.query, this.getSettings(source).verify_token, res);
  }

  /** Throws `SignatureRejectedError` (401) unless `X-Hub-Signature-256` signs the raw body with the app secret. */
  override verifySignature(req: WebhookRequest, _res: WebhookResponse, source: ChannelSource): void {
    checkWhatsAppSignature(req.headers[WHATSAPP_SIGNATURE_HEADER], req.rawBody, this.getSettings(source).app_secret);
  }

  decode(req: WebhookRequest, source: ChannelSource): ChannelInboundEvent[] {
    return decodeWhatsAppEvents(req.body, { phoneNumberId: this.getSettings(source).phone_number_id });
  }

  async doSendMessage(event: ChannelInboundEvent, envelope: StdOutgoingMessageEnvelope, _options: SendMessageOptions): Promise<SendMessageResult> {
    // Encoded first: an unsupported type fails before anything is sent.
    const message = this.encoder.dispatchEnvelope(envelope);
    const settings = this.getSettings(event);
    const mid = await postWhatsAppMessage(settings, {
      phoneNumberId: phoneNumberIdFor(event, settings),
      to: requireRecipient(event),
      message,
      timeoutMs: this.callTimeoutMs,
    });
    return { mid };
  }

  /** Marks the message read and shows "typing…" (WhatsApp has no indicator without the read mark). */
  override async sendTypingIndicator(event: ChannelInboundEvent): Promise<void> {
    const messageId = event.getEventId();
    if (!messageId.startsWith(WAMID_PREFIX)) return;
    const settings = this.getSettings(event);
    await postWhatsAppTyping(settings, { phoneNumberId: phoneNumberIdFor(event, settings), messageId, timeoutMs: this.callTimeoutMs });
  }

  /** Looks each media id up (`GET /{media_id}`): a short-lived URL the host downloads with the bearer token. */
  override async getMessageAttachments(event: ChannelInboundEvent): Promise<InboundAttachmentRef[]> {
    const message = (event as { message?: StdIncomingMessage }).message;
    if (message?.type !== 'attachment') return [];
    const settings = this.getSettings(event);
    const lookups = message.data.attachments.flatMap((attachment) => {
      if (attachment.platformId) return [lookupWhatsAppMedia(settings, attachment, this.callTimeoutMs)];
      // Not decoded by this channel (a file the host attached by its own link): fetched as is.
      return attachment.url ? [Promise.resolve({ url: attachment.url })] : [];
    });
    return Promise.all(lookups);
  }

  /** From the event alone: WhatsApp has no profile API (see `buildWhatsAppSubscriber`). */
  getSubscriberData(event: ChannelInboundEvent): SubscriberCreateDto {
    return buildWhatsAppSubscriber(event);
  }

  /** Not connected by the host: the webhook is set in the App Dashboard; the answer says how. */
  override connect(source: ChannelSource, context: ConnectContext): Promise<ConnectResult> {
    return Promise.resolve(whatsAppConnectResult(this.getSettings(source), context.webhookUrl));
  }

  // No idempotentSends: the Cloud API has no idempotency key and does not drop repeated sends.
  override getCapabilities(): ChannelCapabilities {
    return {
      ...DEFAULT_CHANNEL_CAPABILITIES,
      text: true,
      quickReply: true,
      buttons: true,
      attachment: true,
      typingIndicator: true,
      maxTextLength: WHATSAPP_MAX_TEXT_LENGTH,
    };
  }
}

/** Replies go to the sender of the event being answered. */
function requireRecipient(event: ChannelInboundEvent): string {
  const id = event.getSenderForeignId();
  if (!id) throw new ChannelError('WHATSAPP_ERR_NO_RECIPIENT', 'The event has no sender to reply to');
  return id;
}

/**
 * The business number to send from: the source's `phone_number_id`, else the number the
 * message was sent to (a source that accepts every number of its app answers from each).
 */
function phoneNumberIdFor(event: ChannelInboundEvent, settings: WhatsAppSettings): string {
  const id = settings.phone_number_id || event.getChannelData<Partial<WhatsAppChannelAttributes>>().phone_number_id;
  if (!id) throw new ChannelError('WHATSAPP_ERR_NO_PHONE_NUMBER_ID', 'Neither the source settings nor the event name a phone number ID to send from');
  return id;
}
