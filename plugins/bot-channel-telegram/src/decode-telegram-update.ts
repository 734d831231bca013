import { MessageInboundEvent, PayloadRejectedError, type StdIncomingMessage, type z } from '@bot-ai/api';
import type { TelegramChannelAttributes } from './telegram-channel-attributes.ts';
import { TELEGRAM_CHANNEL_NAME } from './telegram-channel-name.ts';
import { telegramNoiseRuleOf } from './telegram-noise-rules.ts';
import { telegramUpdateSchema, type TelegramUpdate, type TelegramUser } from './telegram-update.schema.ts';
import { toIncomingMessage, toQuickReply } from './to-incoming-message.ts';

/**
 * What decoding needs besides the body.
 * @example decodeTelegramUpdate(body, { botId: telegramBotIdOf(settings.bot_token) })
 */
export interface TelegramDecodeOptions {
  /** The bot's user id (from its token), recorded as each event's recipient when known. */
  botId?: string | undefined;
  /** When a button press counts as happening (Telegram does not date them); default: now. */
  now?: Date;
}

/**
 * Turns one webhook body (a Telegram `Update`; Telegram never batches) into zero or one message
 * event. The event id is the `update_id`, so a delivery Telegram retries is stored once. Updates
 * that fall under a noise rule (see `telegramNoiseRuleOf`) give no event. Throws
 * `PayloadRejectedError` (HTTP 400) when the body is not an `Update` at all.
 * @example const [event] = decodeTelegramUpdate(req.body, { botId: '123456789' });
 */
export function decodeTelegramUpdate(body: unknown, options: TelegramDecodeOptions = {}): MessageInboundEvent[] {
  const parsed = telegramUpdateSchema.safeParse(body);
  if (!parsed.success) throw new PayloadRejectedError(describeIssue(parsed.error), { cause: parsed.error });
  const update = parsed.data;
  if (telegramNoiseRuleOf(update) !== undefined) return [];
  const decoded = toDecodedMessage(update, options.now ?? new Date());
  if (!decoded) return [];
  const channelAttributes: TelegramChannelAttributes = { chat_id: decoded.chatId };
  return [
    new MessageInboundEvent(
      {
        channelName: TELEGRAM_CHANNEL_NAME,
        rawEvent: body,
        channelAttributes,
        occurredAt: decoded.occurredAt,
        eventId: String(update.update_id),
        senderForeignId: String(decoded.from.id),
        ...(options.botId === undefined ? {} : { recipientForeignId: options.botId }),
      },
      decoded.message,
    ),
  ];
}

interface DecodedMessage {
  message: StdIncomingMessage;
  from: TelegramUser;
  chatId: number;
  occurredAt: Date;
}

function toDecodedMessage(update: TelegramUpdate, now: Date): DecodedMessage | undefined {
  const { message, callback_query: query } = update;
  if (message?.from) {
    const incoming = toIncomingMessage(message);
    return incoming && { message: incoming, from: message.from, chatId: message.chat.id, occurredAt: new Date(message.date * 1000) };
  }
  if (query?.data !== undefined) {
    // The chat of the keyboard's message; without one (an inline-mode message), the user's
    // private chat with the bot, whose id is the user's.
    const chatId = query.message?.chat.id ?? query.from.id;
    return { message: toQuickReply({ ...query, data: query.data }), from: query.from, chatId, occurredAt: now };
  }
  return undefined;
}

/** The first problem, with its path: `message.chat.id: Invalid input: expected number, received string`. */
function describeIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'The body is not a Telegram Update';
  const path = issue.path.map(String).join('.');
  return `The body is not a Telegram Update: ${path ? `${path}: ` : ''}${issue.message}`;
}
