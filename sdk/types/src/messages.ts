import { z } from 'zod';

/**
 * The message types the host may ask a channel to send. A channel declares which it supports in
 * its capabilities; the host never sends the others.
 * @example if (envelope.type === OutgoingMessageType.quickReply) { … }
 */
export const OutgoingMessageType = {
  text: 'text',
  quickReply: 'quickReply',
  buttons: 'buttons',
  attachment: 'attachment',
  list: 'list',
  carousel: 'carousel',
} as const;
export type OutgoingMessageType = (typeof OutgoingMessageType)[keyof typeof OutgoingMessageType];

/**
 * The message types a channel decodes from the platform.
 * @example new MessageInboundEvent(context, { type: IncomingMessageType.text, data: { text: 'hi' } })
 */
export const IncomingMessageType = {
  text: 'text',
  quickReply: 'quickReply',
  attachment: 'attachment',
  location: 'location',
} as const;
export type IncomingMessageType = (typeof IncomingMessageType)[keyof typeof IncomingMessageType];

/** A quick-reply option: the text shown and the payload returned when chosen. */
export const quickReplySchema = z.object({ title: z.string().min(1), payload: z.string().min(1) });
export type QuickReply = z.infer<typeof quickReplySchema>;

/** A button: returns a payload, or opens a URL. */
export const buttonSchema = z.union([
  z.object({ type: z.literal('postback'), title: z.string().min(1), payload: z.string().min(1) }),
  z.object({ type: z.literal('url'), title: z.string().min(1), url: z.url() }),
]);
export type Button = z.infer<typeof buttonSchema>;

export const attachmentPayloadSchema = z.object({
  kind: z.enum(['image', 'audio', 'video', 'file']),
  url: z.url(),
  name: z.string().optional(),
  mimeType: z.string().optional(),
});
export type AttachmentPayload = z.infer<typeof attachmentPayloadSchema>;

const elementSchema = z.object({
  title: z.string().min(1),
  subtitle: z.string().optional(),
  imageUrl: z.url().optional(),
  buttons: z.array(buttonSchema).optional(),
});

/**
 * An outgoing message, `StdOutgoingMessageEnvelope`: a `type` and the `data` for it. Validated by
 * the host before a channel's `doSendMessage` sees it.
 * @example const envelope: StdOutgoingMessageEnvelope = { type: 'text', data: { text: 'Hello' } };
 */
export const stdOutgoingMessageEnvelopeSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text'), data: z.object({ text: z.string() }) }),
  z.object({
    type: z.literal('quickReply'),
    data: z.object({ text: z.string(), quickReplies: z.array(quickReplySchema).min(1) }),
  }),
  z.object({ type: z.literal('buttons'), data: z.object({ text: z.string(), buttons: z.array(buttonSchema).min(1) }) }),
  z.object({ type: z.literal('attachment'), data: z.object({ text: z.string().optional(), attachment: attachmentPayloadSchema }) }),
  z.object({ type: z.literal('list'), data: z.object({ elements: z.array(elementSchema).min(1) }) }),
  z.object({ type: z.literal('carousel'), data: z.object({ elements: z.array(elementSchema).min(1) }) }),
]);
export type StdOutgoingMessageEnvelope = z.infer<typeof stdOutgoingMessageEnvelopeSchema>;

/** The envelope of one outgoing type, e.g. `OutgoingEnvelopeOf<'text'>`. */
export type OutgoingEnvelopeOf<T extends OutgoingMessageType> = Extract<StdOutgoingMessageEnvelope, { type: T }>;

/**
 * A file a subscriber sent. The platform holds it: `decode()` records the platform's id of the
 * file (`platformId`: a Telegram `file_id`, a WhatsApp media id) or its link, never a download
 * link that embeds a credential. The host then asks the channel's `getMessageAttachments()` for
 * the download and keeps the file itself; `url` becomes the host's own signed link.
 * @example const photo: InboundAttachment = { kind: 'image', platformId: 'AgACAgQAAxkBAAIB', mimeType: 'image/jpeg' };
 */
export const inboundAttachmentSchema = z.object({
  kind: z.enum(['image', 'audio', 'video', 'file']),
  url: z.url().optional(),
  platformId: z.string().min(1).optional(),
  name: z.string().optional(),
  mimeType: z.string().optional(),
});
export type InboundAttachment = z.infer<typeof inboundAttachmentSchema>;

/**
 * A place a subscriber shared: WGS 84 degrees, with the name and address the platform gives.
 * @example const place: SharedLocation = { latitude: 48.8584, longitude: 2.2945, title: 'Eiffel Tower' };
 */
export const sharedLocationSchema = z.object({
  latitude: z.number().min(-90).max(90),
  longitude: z.number().min(-180).max(180),
  title: z.string().optional(),
  address: z.string().optional(),
});
export type SharedLocation = z.infer<typeof sharedLocationSchema>;

/**
 * A decoded incoming message: text `{ text }`, quickReply `{ text, payload }` (a quick reply,
 * a button or a postback: `payload` is what the bot attached to it), attachment, location.
 * @example const message: StdIncomingMessage = { type: 'quickReply', data: { text: 'Yes', payload: 'YES' } };
 */
export const stdIncomingMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text'), data: z.object({ text: z.string() }) }),
  z.object({ type: z.literal('quickReply'), data: z.object({ text: z.string(), payload: z.string() }) }),
  z.object({
    type: z.literal('attachment'),
    data: z.object({ text: z.string().optional(), attachments: z.array(inboundAttachmentSchema).min(1) }),
  }),
  z.object({ type: z.literal('location'), data: z.object({ text: z.string().optional(), location: sharedLocationSchema }) }),
]);
export type StdIncomingMessage = z.infer<typeof stdIncomingMessageSchema>;
