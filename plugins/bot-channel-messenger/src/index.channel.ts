import {
  DEFAULT_CHANNEL_CAPABILITIES,
  ExtensionInject,
  HttpChannelHandler,
  Injectable,
  SendPacer,
  type ChannelCapabilities,
  type ChannelInboundEvent,
  type ChannelSource,
  type ConnectContext,
  type ConnectResult,
  type SendMessageOptions,
  type SendMessageResult,
  type StdOutgoingMessageEnvelope,
  type SubscriberCreateDto,
  type WebhookRequest,
  type WebhookResponse,
} from '@bot-ai/api';
import { answerMessengerHandshake } from './answer-messenger-handshake.ts';
import { buildMessengerSubscriber, requireMessengerSender } from './build-messenger-subscriber.ts';
import { checkMessengerSignature, MESSENGER_SIGNATURE_HEADER } from './check-messenger-signature.ts';
import { decodeMessengerEvents } from './decode-messenger-events.ts';
import { fetchMessengerProfile, MESSENGER_PROFILE_TIMEOUT_MS, type MessengerProfile } from './fetch-messenger-profile.ts';
import type { MessengerChannelAttributes } from './messenger-channel-attributes.ts';
import { MESSENGER_CHANNEL_NAME } from './messenger-channel-name.ts';
import { MessengerEncoder, type MessengerOutgoingMessage } from './messenger-encoder.ts';
import { MESSENGER_LIMITS } from './messenger-limits.ts';
import { messengerSettingsSchema } from './messenger-settings.schema.ts';
import { MESSENGER_SEND_TIMEOUT_MS, postMessengerMessage, postMessengerTyping } from './post-messenger-message.ts';
import { subscribeMessengerPage } from './subscribe-messenger-page.ts';

/**
 * Meta lets a Page send 10 audio or video messages a second (300 of anything else): such sends
 * are spaced by this much per Page.
 * @example new SendPacer(MESSENGER_MEDIA_SEND_INTERVAL_MS)
 */
export const MESSENGER_MEDIA_SEND_INTERVAL_MS = 100;

/**
 * The Facebook Messenger channel: Meta's GET callback check, `X-Hub-Signature-256` on every POST,
 * messages, quick replies, postbacks, files and locations in; text, quick replies, button and
 * generic templates, files and typing out through the Graph API's Send API. See the README.
 * @example
 * const channel = applyExtensionInjections(new MessengerChannel());
 * const events = await channel.decode(req, source);
 */
@Injectable()
export default class MessengerChannel extends HttpChannelHandler<typeof messengerSettingsSchema> {
  @ExtensionInject(MessengerEncoder) protected readonly encoder!: MessengerEncoder;

  /** How long one Send API call may take; lower it in tests. */
  sendTimeoutMs = MESSENGER_SEND_TIMEOUT_MS;

  /** How long the profile lookup of a new subscriber may take before the fallback is used. */
  profileTimeoutMs = MESSENGER_PROFILE_TIMEOUT_MS;

  /** Spaces audio and video sends per Page (Meta's media limit); give it a fake clock in tests. */
  mediaPacer = new SendPacer(MESSENGER_MEDIA_SEND_INTERVAL_MS);

  constructor() {
    super(MESSENGER_CHANNEL_NAME, messengerSettingsSchema);
  }

  /** Meta's callback check: 200 with `hub.challenge` when `hub.verify_token` is the source's, else 403. */
  override verifyWebhook(req: WebhookRequest, res: WebhookResponse, source: ChannelSource): void {
    answerMessengerHandshake(req.query, res, this.getSettings(source).verify_token);
  }

  /** Throws `SignatureRejectedError` (401) unless `X-Hub-Signature-256` signs the raw body with the app secret. */
  override verifySignature(req: WebhookRequest, _res: WebhookResponse, source: ChannelSource): void {
    checkMessengerSignature(req.headers[MESSENGER_SIGNATURE_HEADER], req.rawBody, this.getSettings(source).app_secret);
  }

  decode(req: WebhookRequest, source: ChannelSource): ChannelInboundEvent[] {
    return decodeMessengerEvents(req.body, { pageId: this.getSettings(source).page_id });
  }

  /** Sends the envelope's messages in order and returns the id of the last one (the file, for a captioned attachment). */
  async doSendMessage(event: ChannelInboundEvent, envelope: StdOutgoingMessageEnvelope, _options: SendMessageOptions): Promise<SendMessageResult> {
    const messages = this.encoder.dispatchEnvelope(envelope);
    const settings = this.getSettings(event);
    const psid = requireMessengerSender(event);
    let mid = '';
    for (const message of messages) {
      if (isAudioOrVideo(message)) await this.mediaPacer.wait(pageOf(event));
      mid = await postMessengerMessage(settings, psid, message, this.sendTimeoutMs);
    }
    return { mid };
  }

  /** The profile's names, avatar, locale and timezone; the PSID and empty names when the lookup fails in any way. */
  async getSubscriberData(event: ChannelInboundEvent): Promise<SubscriberCreateDto> {
    const psid = requireMessengerSender(event);
    const profile = await fetchMessengerProfile(this.getSettings(event), psid, this.profileTimeoutMs).catch((): MessengerProfile => ({}));
    return buildMessengerSubscriber(event, profile);
  }

  override async sendTypingIndicator(event: ChannelInboundEvent): Promise<void> {
    await postMessengerTyping(this.getSettings(event), requireMessengerSender(event), this.sendTimeoutMs);
  }

  /** Subscribes the Page to the app's webhook; the callback URL and verify token go in the App Dashboard by hand. */
  override connect(source: ChannelSource, context: ConnectContext): Promise<ConnectResult> {
    return subscribeMessengerPage(this.getSettings(source), context.webhookUrl);
  }

  // No idempotentSends: the Send API does not deduplicate, so an unknown outcome is not sent again.
  override getCapabilities(): ChannelCapabilities {
    return {
      ...DEFAULT_CHANNEL_CAPABILITIES,
      text: true,
      quickReply: true,
      buttons: true,
      attachment: true,
      list: true,
      carousel: true,
      typingIndicator: true,
      maxTextLength: MESSENGER_LIMITS.text,
    };
  }
}

function isAudioOrVideo(message: MessengerOutgoingMessage): boolean {
  return 'attachment' in message && (message.attachment.type === 'audio' || message.attachment.type === 'video');
}

/** The Page a reply goes out from, the key of the media pacing. */
function pageOf(event: ChannelInboundEvent): string {
  return event.getChannelData<Partial<MessengerChannelAttributes>>().page_id || event.getRecipientForeignId() || 'page';
}
