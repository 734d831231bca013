import {
  ChannelError,
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
  type InboundAttachmentRef,
  type SendMessageOptions,
  type SendMessageResult,
  type StdOutgoingMessageEnvelope,
  type SubscriberCreateDto,
  type WebhookRequest,
  type WebhookResponse,
} from '@bot-ai/api';
import { answerUrlVerification } from './answer-url-verification.ts';
import { buildSlackSubscriber } from './build-slack-subscriber.ts';
import { SLACK_CALL_TIMEOUT_MS } from './call-slack-api.ts';
import { checkSlackSignature, SLACK_SIGNATURE_HEADER, SLACK_TIMESTAMP_HEADER } from './check-slack-signature.ts';
import { decodeSlackRequest } from './decode-slack-request.ts';
import { postSlackMessage } from './post-slack-message.ts';
import { buildSlackAppManifest } from './slack-app-manifest.ts';
import type { SlackChannelAttributes } from './slack-channel-attributes.ts';
import { SLACK_CHANNEL_NAME } from './slack-channel-name.ts';
import { SlackEncoder } from './slack-encoder.ts';
import { slackFileDownloads } from './slack-file-downloads.ts';
import { fetchSlackProfile, profileFromEvent } from './slack-profile.ts';
import { slackSettingsSchema } from './slack-settings.schema.ts';

/** Slack's published pace for posting: about one message a second per channel. */
export const SLACK_CHANNEL_SEND_INTERVAL_MS = 1_000;

/** Slack truncates message text beyond this many characters. */
export const SLACK_MAX_TEXT_LENGTH = 40_000;

/**
 * The Slack channel: a Slack app's Events API (DMs to the bot and mentions of it) and
 * interactivity (button clicks) on one signed Request URL; replies with `chat.postMessage`.
 * See this package's README for the set-up and the wire formats.
 * @example
 * const channel = applyExtensionInjections(new SlackChannel());
 * const events = await channel.decode(req, source);
 */
@Injectable()
export default class SlackChannel extends HttpChannelHandler<typeof slackSettingsSchema> {
  @ExtensionInject(SlackEncoder) protected readonly encoder!: SlackEncoder;

  /** The clock signatures are dated against, in ms since the epoch; fix it in tests. */
  now: () => number = Date.now;

  /** How long one Web API call may take; lower it in tests. */
  callTimeoutMs = SLACK_CALL_TIMEOUT_MS;

  /**
   * Spaces the sends to one Slack conversation a second apart (per workspace and channel).
   * Replace it with one on a fake clock in tests.
   */
  pacer = new SendPacer(SLACK_CHANNEL_SEND_INTERVAL_MS);

  constructor() {
    super(SLACK_CHANNEL_NAME, slackSettingsSchema);
  }

  /**
   * Throws `SignatureRejectedError` (401) unless `X-Slack-Signature` signs
   * `v0:{X-Slack-Request-Timestamp}:{raw body}` with the signing secret and the timestamp is
   * within five minutes. Then answers a `url_verification` handshake with its challenge.
   */
  override verifySignature(req: WebhookRequest, res: WebhookResponse, source: ChannelSource): void {
    checkSlackSignature({
      signature: req.headers[SLACK_SIGNATURE_HEADER],
      timestamp: req.headers[SLACK_TIMESTAMP_HEADER],
      rawBody: req.rawBody,
      secret: this.getSettings(source).signing_secret,
      nowMs: this.now(),
    });
    answerUrlVerification(req, res);
  }

  /** At most one message event per request (Slack does not batch); noise is dropped by named rules. */
  decode(req: WebhookRequest, _source: ChannelSource): ChannelInboundEvent[] {
    return decodeSlackRequest(req, new Date(this.now())).events;
  }

  /** Posts to the event's conversation (and thread), a second apart per conversation; mid = the message's `ts`. */
  async doSendMessage(event: ChannelInboundEvent, envelope: StdOutgoingMessageEnvelope, _options: SendMessageOptions): Promise<SendMessageResult> {
    const message = this.encoder.dispatchEnvelope(envelope);
    const { bot_token, api_base_url } = this.getSettings(event);
    const { team_id = '', channel_id, thread_ts } = event.getChannelData<Partial<SlackChannelAttributes>>();
    const channel = channel_id || requireSender(event);
    await this.pacer.wait(`${team_id}:${channel}`);
    const ts = await postSlackMessage({ apiBaseUrl: api_base_url, botToken: bot_token, channel, threadTs: thread_ts, message, timeoutMs: this.callTimeoutMs });
    return { mid: ts };
  }

  /** The sender's `users.info` profile; what the event holds when that fails in any way. */
  async getSubscriberData(event: ChannelInboundEvent): Promise<SubscriberCreateDto> {
    const { bot_token, api_base_url } = this.getSettings(event);
    const userId = requireSender(event);
    const profile = await fetchSlackProfile({ apiBaseUrl: api_base_url, botToken: bot_token, userId, timeoutMs: this.callTimeoutMs }).catch(() =>
      // A profile outage must not stop the conversation.
      profileFromEvent(event.getRawEvent()),
    );
    return buildSlackSubscriber(event, profile);
  }

  /** Each file's private download URL, with the bot token it needs. */
  override getMessageAttachments(event: ChannelInboundEvent): Promise<InboundAttachmentRef[]> {
    const { bot_token, api_base_url } = this.getSettings(event);
    return slackFileDownloads(event, { apiBaseUrl: api_base_url, botToken: bot_token, timeoutMs: this.callTimeoutMs });
  }

  /**
   * Slack apps are created by hand, so connecting gives the operator an app manifest to paste,
   * with this source's webhook URL as the Events and Interactivity Request URLs.
   */
  override connect(source: ChannelSource, context: ConnectContext): Promise<ConnectResult> {
    const { bot_token, signing_secret } = this.getSettings(source);
    const missing = [bot_token ? '' : 'Bot User OAuth Token', signing_secret ? '' : 'Signing Secret'].filter(Boolean);
    const message = [
      'Slack cannot be connected from here: create the app from the manifest below at api.slack.com/apps → Create New App → From a manifest (pick the workspace, paste the JSON, create), then Install to Workspace.',
      missing.length > 0
        ? `Then copy the ${missing.join(' and the ')} into this source's settings (OAuth & Permissions; Basic Information → App Credentials).`
        : "This source already has a bot token and a signing secret: if they belong to another app, replace them with the new app's.",
      "Slack verifies the Request URL once the signing secret is saved here; if it shows an error, open Event Subscriptions and click Retry.",
    ].join(' ');
    return Promise.resolve({ connected: false, message, instructions: JSON.stringify(buildSlackAppManifest({ webhookUrl: context.webhookUrl }), null, 2) });
  }

  // No typing indicator: Slack has none for bots outside assistant threads. No idempotency
  // key either: chat.postMessage does not drop repeats.
  override getCapabilities(): ChannelCapabilities {
    return {
      ...DEFAULT_CHANNEL_CAPABILITIES,
      text: true,
      quickReply: true,
      buttons: true,
      attachment: true,
      typingIndicator: false,
      maxTextLength: SLACK_MAX_TEXT_LENGTH,
    };
  }
}

/** Replies and profiles are about the sender of the event. */
function requireSender(event: ChannelInboundEvent): string {
  const id = event.getSenderForeignId();
  if (!id) throw new ChannelError('SLACK_ERR_NO_SENDER', 'The event has no sender');
  return id;
}
