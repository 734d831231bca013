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
 * A decoded incoming message: text `{ text }`, quickReply `{ text, payload }`, attachment.
 * @example const message: StdIncomingMessage = { type: 'quickReply', data: { text: 'Yes', payload: 'YES' } };
 */
export const stdIncomingMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text'), data: z.object({ text: z.string() }) }),
  z.object({ type: z.literal('quickReply'), data: z.object({ text: z.string(), payload: z.string() }) }),
  z.object({
    type: z.literal('attachment'),
    data: z.object({ text: z.string().optional(), attachments: z.array(attachmentPayloadSchema) }),
  }),
]);
export type StdIncomingMessage = z.infer<typeof stdIncomingMessageSchema>;
