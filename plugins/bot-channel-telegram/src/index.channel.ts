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
  type InboundAttachmentRef,
  type SendMessageOptions,
  type SendMessageResult,
  type StdOutgoingMessageEnvelope,
  type SubscriberCreateDto,
  type WebhookRequest,
  type WebhookResponse,
} from '@bot-ai/api';
import { buildTelegramSubscriber, type TelegramNames } from './build-telegram-subscriber.ts';
import { callTelegram, TELEGRAM_CALL_TIMEOUT_MS, type TelegramApi } from './call-telegram.ts';
import { CallbackAcknowledger } from './callback-acknowledger.ts';
import { checkTelegramSecretToken, TELEGRAM_SECRET_TOKEN_HEADER } from './check-telegram-secret-token.ts';
import { connectTelegramWebhook } from './connect-telegram-webhook.ts';
import { decodeTelegramUpdate } from './decode-telegram-update.ts';
import { getTelegramProfile } from './get-telegram-profile.ts';
import { sendTelegramMessage, sendTelegramTyping } from './send-telegram-message.ts';
import { telegramAttachmentRefs } from './telegram-attachment-refs.ts';
import { TELEGRAM_CHANNEL_NAME } from './telegram-channel-name.ts';
import { TelegramEncoder, TELEGRAM_MAX_TEXT_LENGTH } from './telegram-encoder.ts';
import { telegramCallbackQueryIdOf, telegramMessageOf, telegramReplyChatIdOf } from './telegram-event-data.ts';
import { telegramBotIdOf, telegramSettingsSchema } from './telegram-settings.schema.ts';

/**
 * Telegram's per-chat limit: "avoid sending more than one message per second" to one chat
 * (https://core.telegram.org/bots/faq#my-bot-is-hitting-limits-how-do-i-avoid-this).
 * @example channel.pacer = new SendPacer(TELEGRAM_CHAT_SEND_INTERVAL_MS, { now, sleep });
 */
export const TELEGRAM_CHAT_SEND_INTERVAL_MS = 1_000;

/**
 * The Telegram Bot API channel: one `Update` per webhook POST, authenticated by the secret token
 * header; replies through `sendMessage` and the media send methods; "typing…"; names from
 * `getChat`; files through `getFile`; `setWebhook` from the admin panel. See this package's README.
 * @example
 * const channel = applyExtensionInjections(new TelegramChannel());
 * const events = await channel.decode(req, source);
 */
@Injectable()
export default class TelegramChannel extends HttpChannelHandler<typeof telegramSettingsSchema> {
  @ExtensionInject(TelegramEncoder) protected readonly encoder!: TelegramEncoder;

  /** How long one Bot API call may take; lower it in tests. */
  callTimeoutMs = TELEGRAM_CALL_TIMEOUT_MS;

  /**
   * Spaces the sends to one chat of one source by a second. Per handler instance: when several
   * workers or runners answer one chat, Telegram's 429 and its `retry_after` take over. Tests give it a fake clock.
   */
  pacer = new SendPacer(TELEGRAM_CHAT_SEND_INTERVAL_MS);

  /** The button presses already acknowledged (`answerCallbackQuery` on the first reply only). */
  readonly acknowledger = new CallbackAcknowledger();

  constructor() {
    super(TELEGRAM_CHANNEL_NAME, telegramSettingsSchema);
  }

  /** Telegram has no GET handshake: a GET gets 405, so a curious browser learns the URL takes POSTs only. */
  override verifyWebhook(_req: WebhookRequest, res: WebhookResponse, _source: ChannelSource): void {
    res.status(405).set('allow', 'POST').set('content-type', 'text/plain; charset=utf-8').send('Telegram posts updates here; there is no GET handshake');
  }

  /** Throws `SignatureRejectedError` (401) unless `X-Telegram-Bot-Api-Secret-Token` is the source's secret token. */
  override verifySignature(req: WebhookRequest, _res: WebhookResponse, source: ChannelSource): void {
    checkTelegramSecretToken(req.headers[TELEGRAM_SECRET_TOKEN_HEADER], this.getSettings(source).secret_token);
  }

  decode(req: WebhookRequest, source: ChannelSource): ChannelInboundEvent[] {
    return decodeTelegramUpdate(req.body, { botId: telegramBotIdOf(this.getSettings(source).bot_token) });
  }

  async doSendMessage(event: ChannelInboundEvent, envelope: StdOutgoingMessageEnvelope, _options: SendMessageOptions): Promise<SendMessageResult> {
    // Encoded first: an envelope Telegram cannot take fails before any call or pacing slot.
    const message = this.encoder.dispatchEnvelope(envelope);
    const api = this.#api(event);
    const chatId = telegramReplyChatIdOf(event);
    const send = async () => {
      await this.pacer.wait(`${event.getSourceId()}:${chatId}`);
      return sendTelegramMessage(api, chatId, message);
    };
    // The acknowledgement runs beside the send (it never rejects), so it adds no latency.
    const [mid] = await Promise.all([send(), this.#acknowledge(api, event)]);
    return { mid };
  }

  /** "typing…" in the chat of the event (`sendChatAction`); not paced: it is not a message. */
  override async sendTypingIndicator(event: ChannelInboundEvent): Promise<void> {
    await sendTelegramTyping(this.#api(event), telegramReplyChatIdOf(event));
  }

  /** Names from `getChat`, falling back to the update's `from` when that call fails in any way. */
  async getSubscriberData(event: ChannelInboundEvent): Promise<SubscriberCreateDto> {
    const profile = event.getSenderForeignId() === undefined ? undefined : await this.#profileOf(event);
    return buildTelegramSubscriber(event, profile);
  }

  /** The download URL of each file of an attachment message, from `getFile`. */
  override async getMessageAttachments(event: ChannelInboundEvent): Promise<InboundAttachmentRef[]> {
    const message = telegramMessageOf(event);
    if (message?.type !== 'attachment') return [];
    return telegramAttachmentRefs(this.#api(event), message.data.attachments);
  }

  /** `setWebhook` to the source's webhook URL, with its secret token, for `message` and `callback_query` updates. */
  override connect(source: ChannelSource, context: ConnectContext): Promise<ConnectResult> {
    return connectTelegramWebhook(this.#api(source), { webhookUrl: context.webhookUrl, secretToken: this.getSettings(source).secret_token });
  }

  // Telegram does not deduplicate sends: no idempotentSends.
  override getCapabilities(): ChannelCapabilities {
    return {
      ...DEFAULT_CHANNEL_CAPABILITIES,
      text: true,
      quickReply: true,
      buttons: true,
      attachment: true,
      typingIndicator: true,
      maxTextLength: TELEGRAM_MAX_TEXT_LENGTH,
    };
  }

  #api(from: ChannelSource | ChannelInboundEvent): TelegramApi {
    const { api_base_url, bot_token } = this.getSettings(from);
    return { apiBaseUrl: api_base_url, botToken: bot_token, timeoutMs: this.callTimeoutMs };
  }

  /**
   * Stops the spinner on a pressed button: `answerCallbackQuery` on the first reply to the press.
   * Best effort: the reply matters, the acknowledgement does not, so its errors are ignored.
   */
  async #acknowledge(api: TelegramApi, event: ChannelInboundEvent): Promise<void> {
    const queryId = telegramCallbackQueryIdOf(event);
    if (queryId === undefined || !this.acknowledger.claim(queryId)) return;
    await callTelegram(api, 'answerCallbackQuery', { callback_query_id: queryId }).catch(() => undefined);
  }

  async #profileOf(event: ChannelInboundEvent): Promise<TelegramNames | undefined> {
    const userId = Number(event.getSenderForeignId());
    if (!Number.isSafeInteger(userId)) return undefined;
    try {
      return await getTelegramProfile(this.#api(event), userId);
    } catch {
      // A profile outage (or a user who blocked the bot) must not stop the conversation.
      return undefined;
    }
  }
}
