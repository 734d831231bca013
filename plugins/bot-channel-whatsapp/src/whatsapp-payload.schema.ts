import { z } from '@bot-ai/api';

/**
 * The Cloud API's webhook payloads. Loose objects: fields the channel does not read pass through
 * untouched (so the decoded objects can serve as the stored raw event), and only the fields it
 * reads are validated. No transforms: a parsed object holds exactly what the platform sent.
 */

/** The `object` of every WhatsApp Business Account webhook. */
export const WHATSAPP_WEBHOOK_OBJECT = 'whatsapp_business_account';

/** The one webhook field that carries messages (and their statuses). */
export const WHATSAPP_MESSAGES_FIELD = 'messages';

/** An inbound file: the media id to look up, and what the sender attached to it. */
const mediaSchema = z.looseObject({
  id: z.string().min(1),
  mime_type: z.string().optional(),
  caption: z.string().optional(),
  filename: z.string().optional(),
});

/** The choice behind a tapped reply button or list row. */
const replySchema = z.looseObject({ id: z.string(), title: z.string() });

/**
 * One inbound message of `value.messages`. `type` says which of the optional fields holds the
 * content; `timestamp` (Unix seconds, as a string) is read leniently by the decoder.
 * @example whatsAppMessageSchema.parse({ from: '16315551181', id: 'wamid.ID', timestamp: '1717000000', type: 'text', text: { body: 'hi' } })
 */
export const whatsAppMessageSchema = z.looseObject({
  id: z.string().min(1),
  from: z.string().min(1).optional(),
  timestamp: z.unknown().optional(),
  type: z.string(),
  text: z.looseObject({ body: z.string() }).optional(),
  interactive: z
    .looseObject({ type: z.string(), button_reply: replySchema.optional(), list_reply: replySchema.optional() })
    .optional(),
  button: z.looseObject({ text: z.string(), payload: z.string().optional() }).optional(),
  image: mediaSchema.optional(),
  audio: mediaSchema.optional(),
  video: mediaSchema.optional(),
  document: mediaSchema.optional(),
  sticker: mediaSchema.optional(),
  location: z
    .looseObject({ latitude: z.number(), longitude: z.number(), name: z.string().optional(), address: z.string().optional() })
    .optional(),
  errors: z.array(z.unknown()).optional(),
});
export type WhatsAppMessage = z.output<typeof whatsAppMessageSchema>;

/**
 * A sender's profile as the webhook gives it: WhatsApp has no profile API, this is all there is.
 * @example whatsAppContactSchema.parse({ profile: { name: 'Ada Lovelace' }, wa_id: '16315551181' })
 */
export const whatsAppContactSchema = z.looseObject({
  wa_id: z.string().optional(),
  profile: z.looseObject({ name: z.string().optional() }).optional(),
});
export type WhatsAppContact = z.output<typeof whatsAppContactSchema>;

/**
 * The `value` of a `messages` change: the business number it concerns, then inbound messages
 * with their senders' contacts, or statuses of sent messages, or errors.
 * @example whatsAppMessagesValueSchema.parse({ messaging_product: 'whatsapp', metadata: { display_phone_number: '15550783881', phone_number_id: '106540352242922' }, statuses: [] })
 */
export const whatsAppMessagesValueSchema = z.looseObject({
  messaging_product: z.string().optional(),
  metadata: z.looseObject({
    display_phone_number: z.string().optional(),
    phone_number_id: z.string().min(1),
  }),
  contacts: z.array(whatsAppContactSchema).optional(),
  messages: z.array(whatsAppMessageSchema).optional(),
  statuses: z.array(z.unknown()).optional(),
  errors: z.array(z.unknown()).optional(),
});
export type WhatsAppMessagesValue = z.output<typeof whatsAppMessagesValueSchema>;

/** One change of an entry; its `value` is read only when `field` is `messages`. */
const changeSchema = z.looseObject({ field: z.string(), value: z.unknown() });
export type WhatsAppChange = z.output<typeof changeSchema>;

/**
 * A webhook body of the Cloud API: entries of one or more WhatsApp Business Accounts, each with
 * its changes. Anything else (another Graph object such as `page`, or not an object at all) is
 * not a WhatsApp delivery.
 * @example whatsAppPayloadSchema.parse({ object: 'whatsapp_business_account', entry: [{ id: '102290129340398', changes: [] }] })
 */
export const whatsAppPayloadSchema = z.looseObject({
  object: z.literal(WHATSAPP_WEBHOOK_OBJECT),
  entry: z.array(z.looseObject({ id: z.string().optional(), changes: z.array(changeSchema) })),
});
export type WhatsAppPayload = z.output<typeof whatsAppPayloadSchema>;
