import {
  ChannelError,
  constantTimeEqual,
  DEFAULT_CHANNEL_CAPABILITIES,
  ExtensionInject,
  HttpChannelHandler,
  Injectable,
  type ChannelCapabilities,
  type ChannelInboundEvent,
  type ChannelSource,
  type SendMessageOptions,
  type SendMessageResult,
  type StdOutgoingMessageEnvelope,
  type SubscriberCreateDto,
  type WebhookRequest,
  type WebhookResponse,
} from '@bot-ai/api';
import { buildSampleSubscriber } from './build-sample-subscriber.ts';
import { checkSampleSignature, SAMPLE_SIGNATURE_HEADER } from './check-sample-signature.ts';
import { decodeSampleEvents } from './decode-sample-events.ts';
import { postSampleMessage, SAMPLE_SEND_TIMEOUT_MS } from './post-sample-message.ts';
import { SAMPLE_CHANNEL_NAME } from './sample-channel-name.ts';
import { SampleEncoder } from './sample-encoder.ts';
import { sampleSettingsSchema } from './sample-settings.schema.ts';

/**
 * The reference channel: a webhook platform with a GET verify handshake, HMAC-signed POSTs and
 * a bearer-token send API. See this package's README for the wire formats.
 * @example
 * const channel = applyExtensionInjections(new SampleChannel());
 * const events = await channel.decode(req, source);
 */
@Injectable()
export default class SampleChannel extends HttpChannelHandler<typeof sampleSettingsSchema> {
  @ExtensionInject(SampleEncoder) protected readonly encoder!: SampleEncoder;

  /** How long one send may take; lower it in tests. */
  sendTimeoutMs = SAMPLE_SEND_TIMEOUT_MS;

  constructor() {
    super(SAMPLE_CHANNEL_NAME, sampleSettingsSchema);
  }

  /** 200 with the `challenge` (or `ok`) when `verify_token` equals the setting, else 403. */
  override verifyWebhook(req: WebhookRequest, res: WebhookResponse, source: ChannelSource): void {
    if (!constantTimeEqual(req.query.verify_token, this.getSettings(source).verify_token)) {
      res.status(403).send('Forbidden');
      return;
    }
    res.status(200).set('content-type', 'text/plain; charset=utf-8').send(req.query.challenge || 'ok');
  }

  /** Throws `SignatureRejectedError` (401) unless `X-Bot-Signature` signs the raw body. */
  override verifySignature(req: WebhookRequest, _res: WebhookResponse, source: ChannelSource): void {
    checkSampleSignature(req.headers[SAMPLE_SIGNATURE_HEADER], req.rawBody, this.getSettings(source).webhook_secret);
  }

  decode(req: WebhookRequest, source: ChannelSource): ChannelInboundEvent[] {
    return decodeSampleEvents(req.body, { tenantId: this.getSettings(source).tenant_id });
  }

  async doSendMessage(
    event: ChannelInboundEvent,
    envelope: StdOutgoingMessageEnvelope,
    options: SendMessageOptions,
  ): Promise<SendMessageResult> {
    const message = this.encoder.dispatchEnvelope(envelope);
    const { api_url, api_key } = this.getSettings(event);
    const mid = await postSampleMessage({
      apiUrl: api_url,
      apiKey: api_key,
      recipientId: requireRecipient(event),
      message,
      idempotencyKey: options.idempotencyKey,
      timeoutMs: this.sendTimeoutMs,
    });
    return { mid };
  }

  getSubscriberData(event: ChannelInboundEvent): SubscriberCreateDto {
    return buildSampleSubscriber(event);
  }

  // The sample platform drops a send whose Idempotency-Key it has seen (postSampleMessage sends it).
  override getCapabilities(): ChannelCapabilities {
    return { ...DEFAULT_CHANNEL_CAPABILITIES, text: true, quickReply: true, maxTextLength: 2000, idempotentSends: true };
  }
}

/** Replies go to the sender of the event being answered. */
function requireRecipient(event: ChannelInboundEvent): string {
  const id = event.getSenderForeignId();
  if (!id) throw new ChannelError('SAMPLE_ERR_NO_RECIPIENT', 'The event has no sender to reply to');
  return id;
}
