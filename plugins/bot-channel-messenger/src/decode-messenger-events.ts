import { createHash } from 'node:crypto';
import { MessageInboundEvent, PayloadRejectedError, type StdIncomingMessage, type z } from '@bot-ai/api';
import { toMessengerIncomingMessage } from './decode-messenger-message.ts';
import type { MessengerChannelAttributes } from './messenger-channel-attributes.ts';
import { MESSENGER_CHANNEL_NAME } from './messenger-channel-name.ts';
import { entryNoiseRule, messagingNoiseRule } from './messenger-noise-rules.ts';
import { messengerPayloadSchema, type MessengerEntry, type MessengerMessaging } from './messenger-payload.schema.ts';

/** Below this a platform time is in seconds (Meta's reference examples), above in milliseconds. */
const SECONDS_BELOW = 1e11;

/** The largest millisecond time a `Date` can hold. */
const MAX_DATE_MS = 8.64e15;

/**
 * Turns a webhook body into message events: one per messaging item of every entry, in the order
 * Meta sent them. Drops the noise (see `MessengerNoiseRule`) and items with nothing to answer.
 * Throws `PayloadRejectedError` (HTTP 400) when the body is not a Messenger `page` payload.
 * @example const events = decodeMessengerEvents(req.body, { pageId: settings.page_id });
 */
export function decodeMessengerEvents(body: unknown, filter: { pageId: string }, now = new Date()): MessageInboundEvent[] {
  const object = (body as { object?: unknown } | null | undefined)?.object;
  if (object !== undefined && object !== 'page') {
    // Instagram and WhatsApp use the same webhook format with another object: not this channel's.
    throw new PayloadRejectedError(`object is ${JSON.stringify(object)}, not "page": not a Messenger webhook`);
  }
  const parsed = messengerPayloadSchema.safeParse(body);
  if (!parsed.success) throw new PayloadRejectedError(describeIssue(parsed.error), { cause: parsed.error });
  const rawEntries = (body as { entry: Array<{ messaging?: unknown[] }> }).entry;
  return parsed.data.entry.flatMap((entry, entryIndex) => {
    if (entryNoiseRule(entry, filter)) return [];
    const rawItems = rawEntries[entryIndex]?.messaging ?? [];
    return (entry.messaging ?? []).flatMap((item, index) => {
      if (messagingNoiseRule(item)) return [];
      const message = toMessengerIncomingMessage(item);
      return message ? [toMessageEvent(entry, item, rawItems[index], message, now)] : [];
    });
  });
}

function toMessageEvent(entry: MessengerEntry, item: MessengerMessaging, rawItem: unknown, message: StdIncomingMessage, now: Date): MessageInboundEvent {
  const channelAttributes: MessengerChannelAttributes = { page_id: entry.id };
  const senderId = item.sender?.id;
  const recipientId = item.recipient?.id;
  return new MessageInboundEvent(
    {
      channelName: MESSENGER_CHANNEL_NAME,
      rawEvent: rawItem,
      channelAttributes,
      occurredAt: toDate(item.timestamp) ?? toDate(entry.time) ?? now,
      eventId: eventIdOf(entry, item, rawItem),
      ...(senderId ? { senderForeignId: senderId } : {}),
      ...(recipientId ? { recipientForeignId: recipientId } : {}),
    },
    message,
  );
}

/**
 * Meta's id of the message or postback, so a redelivery is stored once. A postback without a
 * `mid` (older webhook versions) is named by its sender and time, which a redelivery repeats.
 */
function eventIdOf(entry: MessengerEntry, item: MessengerMessaging, rawItem: unknown): string {
  if (item.postback) {
    if (item.postback.mid) return item.postback.mid;
    const sender = item.sender?.id ?? item.sender?.user_ref ?? '';
    const time = item.timestamp ?? entry.time ?? createHash('sha256').update(JSON.stringify(rawItem)).digest('hex');
    return `postback:${sender}:${time}`;
  }
  return item.message!.mid;
}

function toDate(time: number | string | undefined): Date | undefined {
  if (time === undefined) return undefined;
  const value = Number(time);
  const ms = value < SECONDS_BELOW ? value * 1000 : value;
  return ms > 0 && ms <= MAX_DATE_MS ? new Date(ms) : undefined;
}

/** The first problem, with its path: `entry.0.messaging.0.message.mid: Invalid input: …`. */
function describeIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'The payload is not a Messenger webhook';
  const path = issue.path.map(String).join('.');
  return path ? `${path}: ${issue.message}` : issue.message;
}
