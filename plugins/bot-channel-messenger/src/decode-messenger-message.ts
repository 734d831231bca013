import type { InboundAttachment, SharedLocation, StdIncomingMessage } from '@bot-ai/api';
import { z } from '@bot-ai/api';
import type { MessengerAttachment, MessengerMessage, MessengerMessaging, MessengerPostback } from './messenger-payload.schema.ts';

/** Attachment types that are files the person sent; `fallback`, `template`, `sticker`, `reel`… are not. */
const MEDIA_KINDS = new Set(['image', 'audio', 'video', 'file'] as const);
type MediaKind = InboundAttachment['kind'];

/** A media payload: a public CDN link to the file (no credential in it; it expires after a while). */
const mediaPayloadSchema = z.looseObject({ url: z.url({ protocol: /^https?$/ }) });

/** A shared location: WGS 84 degrees as `lat`/`long`. */
const locationPayloadSchema = z.looseObject({
  coordinates: z.looseObject({ lat: z.number().min(-90).max(90), long: z.number().min(-180).max(180) }),
});

/**
 * The message a messaging item carries, or `undefined` when there is nothing to answer:
 * - a postback → `quickReply` `{ text: title, payload }` (a postback without a payload: `text`);
 * - a quick reply → `quickReply` `{ text: message text (or the payload), payload }`;
 * - image/audio/video/file attachments → `attachment`, in order, each with its `url`;
 * - a `location` attachment → `location`;
 * - text → `text`.
 * A message with only `fallback` (a shared link), `template`, `sticker` or unknown attachments and
 * no text decodes to nothing. Echoes and notifications are dropped before (see the noise rules).
 * @example toMessengerIncomingMessage({ message: { mid: 'm_1', text: 'hi' } }) // { type: 'text', data: { text: 'hi' } }
 */
export function toMessengerIncomingMessage(item: Pick<MessengerMessaging, 'message' | 'postback'>): StdIncomingMessage | undefined {
  if (item.postback) return fromPostback(item.postback);
  if (item.message) return fromMessage(item.message);
  return undefined;
}

function fromPostback({ title, payload }: MessengerPostback): StdIncomingMessage | undefined {
  // Meta sends the payload only to the app whose button it was; other apps get the title alone.
  if (payload) return { type: 'quickReply', data: { text: title || payload, payload } };
  return title ? { type: 'text', data: { text: title } } : undefined;
}

function fromMessage(message: MessengerMessage): StdIncomingMessage | undefined {
  const text = message.text || undefined;
  const withText = text === undefined ? {} : { text };
  if (message.quick_reply) {
    const { payload } = message.quick_reply;
    return { type: 'quickReply', data: { text: text ?? payload, payload } };
  }
  const attachments = message.attachments ?? [];
  const files = attachments.flatMap(toInboundAttachment);
  if (files.length > 0) return { type: 'attachment', data: { ...withText, attachments: files } };
  const location = attachments.map(toSharedLocation).find((place) => place !== undefined);
  if (location) return { type: 'location', data: { ...withText, location } };
  return text === undefined ? undefined : { type: 'text', data: { text } };
}

function toInboundAttachment(attachment: MessengerAttachment): InboundAttachment[] {
  if (!MEDIA_KINDS.has(attachment.type as MediaKind)) return [];
  const payload = mediaPayloadSchema.safeParse(attachment.payload);
  // No platform id: Messenger gives a public link, which the host downloads as it is.
  return payload.success ? [{ kind: attachment.type as MediaKind, url: payload.data.url }] : [];
}

function toSharedLocation(attachment: MessengerAttachment): SharedLocation | undefined {
  if (attachment.type !== 'location') return undefined;
  const payload = locationPayloadSchema.safeParse(attachment.payload);
  if (!payload.success) return undefined;
  const { lat, long } = payload.data.coordinates;
  return { latitude: lat, longitude: long, ...(attachment.title ? { title: attachment.title } : {}) };
}
