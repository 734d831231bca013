import { z } from '@bot-ai/api';

/**
 * A time as Meta writes it: milliseconds as a number (webhooks), or digits in a string (the
 * reference's examples write every property as a string). Anything else becomes `undefined`
 * rather than rejecting the delivery: the event is then dated by its entry, or now.
 */
const platformTimeSchema = z
  .union([z.number().int().positive(), z.string().regex(/^\d{1,16}$/)])
  .optional()
  .catch(undefined);

/** The sender: a PSID, or a `user_ref` (chat plugin visitors, who have no PSID yet). */
const senderSchema = z.looseObject({
  id: z.string().min(1).optional(),
  user_ref: z.string().optional(),
});

/**
 * One attachment of a message. Only `type` is required here; the payload is read per type when
 * decoding (media: `payload.url`; location: `payload.coordinates`), so a new type, a `fallback`
 * with a `null` payload or a `template` never rejects the delivery.
 * @example messengerAttachmentSchema.parse({ type: 'image', payload: { url: 'https://scontent.xx.fbcdn.net/v/photo.jpg' } })
 */
export const messengerAttachmentSchema = z.looseObject({
  type: z.string(),
  title: z.string().nullish(),
  payload: z.unknown().optional(),
});
export type MessengerAttachment = z.output<typeof messengerAttachmentSchema>;

/**
 * A message the person sent (or, with `is_echo`, one the Page sent).
 * @example messengerMessageSchema.parse({ mid: 'm_1', text: 'Red', quick_reply: { payload: 'COLOR_RED' } })
 */
export const messengerMessageSchema = z.looseObject({
  mid: z.string().min(1),
  text: z.string().optional(),
  is_echo: z.boolean().optional(),
  quick_reply: z.looseObject({ payload: z.string() }).optional(),
  attachments: z.array(messengerAttachmentSchema).optional(),
});
export type MessengerMessage = z.output<typeof messengerMessageSchema>;

/**
 * A tap on a postback button, the Get Started button or a persistent menu item.
 * @example messengerPostbackSchema.parse({ mid: 'm_2', title: 'Get Started', payload: 'GET_STARTED' })
 */
export const messengerPostbackSchema = z.looseObject({
  mid: z.string().min(1).optional(),
  title: z.string().optional(),
  payload: z.string().optional(),
});
export type MessengerPostback = z.output<typeof messengerPostbackSchema>;

/**
 * One item of an entry's `messaging` array. Loose: fields the channel does not read are ignored,
 * and only the read ones are validated (a `text` that is not a string rejects the delivery).
 * `delivery`, `read`, `reaction`, `optin` and `referral` are only tested for presence.
 * @example messengerMessagingSchema.parse({ sender: { id: '6723419087613458' }, message: { mid: 'm_1', text: 'hi' } })
 */
export const messengerMessagingSchema = z.looseObject({
  sender: senderSchema.optional(),
  recipient: z.looseObject({ id: z.string().min(1).optional() }).optional(),
  timestamp: platformTimeSchema,
  message: messengerMessageSchema.optional(),
  postback: messengerPostbackSchema.optional(),
  delivery: z.unknown().optional(),
  read: z.unknown().optional(),
  reaction: z.unknown().optional(),
  optin: z.unknown().optional(),
  referral: z.unknown().optional(),
});
export type MessengerMessaging = z.output<typeof messengerMessagingSchema>;

/**
 * One entry: the Page (`id`) and its `messaging` items. Entries without `messaging` (`standby`,
 * for threads another app controls; `changes`, for feed subscriptions) carry nothing to decode.
 * @example messengerEntrySchema.parse({ id: '102938475610293', time: 1763800000312, messaging: [] })
 */
export const messengerEntrySchema = z.looseObject({
  id: z.union([z.string().min(1), z.number().int().nonnegative()]).transform(String),
  time: platformTimeSchema,
  messaging: z.array(messengerMessagingSchema).optional(),
});
export type MessengerEntry = z.output<typeof messengerEntrySchema>;

/**
 * A webhook body of the Messenger Platform: `object: 'page'` and a batch of entries, each with a
 * batch of messaging items, kept in order.
 * @example messengerPayloadSchema.parse({ object: 'page', entry: [] })
 */
export const messengerPayloadSchema = z.looseObject({
  object: z.literal('page'),
  entry: z.array(messengerEntrySchema),
});
export type MessengerPayload = z.output<typeof messengerPayloadSchema>;
