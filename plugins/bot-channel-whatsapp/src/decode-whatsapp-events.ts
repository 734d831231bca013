import { MessageInboundEvent, PayloadRejectedError, type InboundAttachment, type StdIncomingMessage, type z } from '@bot-ai/api';
import type { WhatsAppChannelAttributes } from './whatsapp-channel-attributes.ts';
import { WHATSAPP_CHANNEL_NAME } from './whatsapp-channel-name.ts';
import { changeNoiseRule, messageNoiseRule } from './whatsapp-noise-rules.ts';
import {
  whatsAppMessagesValueSchema,
  whatsAppPayloadSchema,
  type WhatsAppContact,
  type WhatsAppMessage,
  type WhatsAppMessagesValue,
} from './whatsapp-payload.schema.ts';

/** The largest Unix time in seconds a `Date` can hold. */
const MAX_DATE_SECONDS = 8.64e12;

/** The media message types, and the attachment kind each becomes (stickers are WebP images). */
const MEDIA_KINDS = {
  image: 'image',
  sticker: 'image',
  audio: 'audio',
  video: 'video',
  document: 'file',
} as const satisfies Record<string, InboundAttachment['kind']>;
type MediaType = keyof typeof MEDIA_KINDS;

/**
 * Turns a Cloud API webhook body into message events, one per inbound message, in the order
 * the platform sent them (entries, then changes, then messages). Drops noise by the rules of
 * `whatsapp-noise-rules.ts` (and messages to another business number when `phoneNumberId` is
 * set), and skips message types it does not decode (contacts, orders, flow replies…).
 * Throws `PayloadRejectedError` (HTTP 400) when the body is not a WhatsApp webhook.
 * @example const events = decodeWhatsAppEvents(req.body, { phoneNumberId: '106540352242922' });
 */
export function decodeWhatsAppEvents(body: unknown, filter: { phoneNumberId: string }, now = new Date()): MessageInboundEvent[] {
  const payload = whatsAppPayloadSchema.safeParse(body);
  if (!payload.success) throw rejection(payload.error, []);
  const events: MessageInboundEvent[] = [];
  payload.data.entry.forEach((entry, entryIndex) => {
    entry.changes.forEach((change, changeIndex) => {
      if (changeNoiseRule(change)) return;
      const value = whatsAppMessagesValueSchema.safeParse(change.value);
      if (!value.success) throw rejection(value.error, ['entry', entryIndex, 'changes', changeIndex, 'value']);
      // Rule `other-phone-number`: one Meta app posts the messages of all its numbers here.
      if (filter.phoneNumberId !== '' && value.data.metadata.phone_number_id !== filter.phoneNumberId) return;
      // Rules `statuses` and `errors` (value level): only `value.messages` is ever read.
      for (const message of value.data.messages ?? []) {
        if (messageNoiseRule(message)) continue;
        const incoming = toIncomingMessage(message);
        if (incoming) events.push(toMessageEvent(value.data, message, incoming, now));
      }
    });
  });
  return events;
}

/**
 * The message a WhatsApp message decodes to, or undefined for a type (or a malformed content)
 * the channel does not decode.
 */
function toIncomingMessage(message: WhatsAppMessage): StdIncomingMessage | undefined {
  switch (message.type) {
    case 'text':
      return message.text && { type: 'text', data: { text: message.text.body } };
    case 'interactive': {
      const reply = interactiveReply(message.interactive);
      return reply && { type: 'quickReply', data: { text: reply.title, payload: reply.id } };
    }
    case 'button':
      // A quick-reply button of a template; `payload` is what the template set for it.
      return message.button && { type: 'quickReply', data: { text: message.button.text, payload: message.button.payload ?? message.button.text } };
    case 'location':
      return toLocation(message.location);
    default:
      return isMediaType(message.type) ? toAttachment(message.type, message[message.type]) : undefined;
  }
}

/** A tapped reply button or list row; other interactive replies (flows, …) are not choices. */
function interactiveReply(interactive: WhatsAppMessage['interactive']): { id: string; title: string } | undefined {
  if (interactive?.type === 'button_reply') return interactive.button_reply;
  if (interactive?.type === 'list_reply') return interactive.list_reply;
  return undefined;
}

function isMediaType(type: string): type is MediaType {
  return Object.hasOwn(MEDIA_KINDS, type);
}

/** The media id goes into `platformId`: the download URL needs a token and is looked up later. */
function toAttachment(type: MediaType, media: WhatsAppMessage[MediaType]): StdIncomingMessage | undefined {
  if (!media) return undefined;
  const attachment: InboundAttachment = {
    kind: MEDIA_KINDS[type],
    platformId: media.id,
    ...(media.filename ? { name: media.filename } : {}),
    ...(media.mime_type ? { mimeType: media.mime_type } : {}),
  };
  return { type: 'attachment', data: { ...(media.caption ? { text: media.caption } : {}), attachments: [attachment] } };
}

/** A shared place; coordinates out of range are not a place (skipped rather than stored). */
function toLocation(location: WhatsAppMessage['location']): StdIncomingMessage | undefined {
  if (!location) return undefined;
  const { latitude, longitude, name, address } = location;
  if (Math.abs(latitude) > 90 || Math.abs(longitude) > 180) return undefined;
  return {
    type: 'location',
    data: { location: { latitude, longitude, ...(name ? { title: name } : {}), ...(address ? { address } : {}) } },
  };
}

function toMessageEvent(value: WhatsAppMessagesValue, message: WhatsAppMessage, incoming: StdIncomingMessage, now: Date): MessageInboundEvent {
  const { phone_number_id, display_phone_number = '' } = value.metadata;
  const channelAttributes: WhatsAppChannelAttributes = { phone_number_id, display_phone_number };
  const contact = message.from === undefined ? undefined : value.contacts?.find((candidate) => candidate.wa_id === message.from);
  return new MessageInboundEvent(
    {
      channelName: WHATSAPP_CHANNEL_NAME,
      rawEvent: rawEventOf(value, contact, message),
      channelAttributes,
      occurredAt: occurredAt(message.timestamp, now),
      eventId: message.id,
      ...(message.from === undefined ? {} : { senderForeignId: message.from }),
      recipientForeignId: phone_number_id,
    },
    incoming,
  );
}

/**
 * The stored raw event: the change's `value` narrowed to this one message and its sender's
 * contact, so it stays in the platform's own shape and holds the profile name for the subscriber.
 */
function rawEventOf(value: WhatsAppMessagesValue, contact: WhatsAppContact | undefined, message: WhatsAppMessage): Record<string, unknown> {
  return {
    ...(value.messaging_product === undefined ? {} : { messaging_product: value.messaging_product }),
    metadata: value.metadata,
    ...(contact ? { contacts: [contact] } : {}),
    messages: [message],
  };
}

/** `timestamp` is Unix seconds as a string; anything unreadable dates the message now. */
function occurredAt(timestamp: unknown, now: Date): Date {
  const seconds = typeof timestamp === 'string' && /^\d+$/.test(timestamp) ? Number(timestamp) : timestamp;
  if (typeof seconds !== 'number' || !Number.isInteger(seconds) || seconds <= 0 || seconds > MAX_DATE_SECONDS) return now;
  return new Date(seconds * 1000);
}

/** The first problem, with its path: `entry.0.changes.0.value.messages.0.id: Invalid input: …`. */
function rejection(error: z.ZodError, prefix: Array<string | number>): PayloadRejectedError {
  const issue = error.issues[0];
  const path = [...prefix, ...(issue?.path ?? [])].map(String).join('.');
  const reason = issue ? (path ? `${path}: ${issue.message}` : issue.message) : 'The body is not a WhatsApp Business Account webhook';
  return new PayloadRejectedError(reason, { cause: error });
}
