import { z } from '@bot-ai/api';

/**
 * The Telegram Bot API objects the channel reads from an `Update`
 * (https://core.telegram.org/bots/api#update). Loose: fields the channel does not read are
 * ignored, and only the read ones are validated, so a field Telegram adds later changes nothing.
 */

/**
 * A user or bot (`User`): the id and what a new subscriber is made of.
 * @example telegramUserSchema.parse({ id: 123456789, is_bot: false, first_name: 'Ada', language_code: 'en' })
 */
export const telegramUserSchema = z.looseObject({
  id: z.number().int(),
  is_bot: z.boolean().optional(),
  first_name: z.string().optional(),
  last_name: z.string().optional(),
  language_code: z.string().optional(),
});
export type TelegramUser = z.output<typeof telegramUserSchema>;

const chatSchema = z.looseObject({ id: z.number().int(), type: z.string().optional() });

/** One size of a photo (`PhotoSize`); a photo message holds several. */
const photoSizeSchema = z.looseObject({
  file_id: z.string().min(1),
  width: z.number().optional(),
  height: z.number().optional(),
  file_size: z.number().optional(),
});
export type TelegramPhotoSize = z.output<typeof photoSizeSchema>;

/** A `Document`, `Audio`, `Voice`, `Video` or `VideoNote`: a file Telegram keeps, by its `file_id`. */
const fileSchema = z.looseObject({
  file_id: z.string().min(1),
  file_name: z.string().optional(),
  mime_type: z.string().optional(),
});
export type TelegramFile = z.output<typeof fileSchema>;

const locationSchema = z.looseObject({
  latitude: z.number().min(-90).max(90),
  longitude: z.number().min(-180).max(180),
});

const venueSchema = z.looseObject({
  location: locationSchema,
  title: z.string().optional(),
  address: z.string().optional(),
});

/** A button of an inline keyboard; only the ones carrying `callback_data` matter here. */
const inlineButtonSchema = z.looseObject({ text: z.string().optional(), callback_data: z.string().optional() });

/**
 * A `Message`. `from` is absent in channels; the content fields are mutually exclusive in
 * practice (a venue message also carries its `location`).
 * @example telegramMessageSchema.parse({ message_id: 1, date: 1700000000, chat: { id: 42 }, text: 'hi' })
 */
export const telegramMessageSchema = z.looseObject({
  message_id: z.number().int(),
  date: z.number().int().nonnegative(),
  chat: chatSchema,
  from: telegramUserSchema.optional(),
  text: z.string().optional(),
  caption: z.string().optional(),
  photo: z.array(photoSizeSchema).min(1).optional(),
  document: fileSchema.optional(),
  audio: fileSchema.optional(),
  voice: fileSchema.optional(),
  video: fileSchema.optional(),
  video_note: fileSchema.optional(),
  location: locationSchema.optional(),
  venue: venueSchema.optional(),
  reply_markup: z.looseObject({ inline_keyboard: z.array(z.array(inlineButtonSchema)).optional() }).optional(),
});
export type TelegramMessage = z.output<typeof telegramMessageSchema>;

/**
 * A `CallbackQuery`: a press on an inline keyboard button. `message` is the bot's message that
 * held the keyboard (absent for inline-mode messages, and possibly an `InaccessibleMessage`,
 * `date: 0`, when too old); `data` is absent for game buttons.
 * @example telegramCallbackQuerySchema.parse({ id: '4382', from: { id: 42 }, data: 'YES' })
 */
export const telegramCallbackQuerySchema = z.looseObject({
  id: z.string().min(1),
  from: telegramUserSchema,
  message: z
    .looseObject({
      chat: chatSchema,
      reply_markup: z.looseObject({ inline_keyboard: z.array(z.array(inlineButtonSchema)).optional() }).optional(),
    })
    .optional(),
  data: z.string().optional(),
});
export type TelegramCallbackQuery = z.output<typeof telegramCallbackQuerySchema>;

/**
 * One webhook body: an `Update`. Telegram posts one update per request (it does not batch). At
 * most one of the optional fields is present; the ones the channel does not subscribe to
 * (`edited_message`, `channel_post`, `my_chat_member`, …) pass unvalidated.
 * @example telegramUpdateSchema.parse({ update_id: 10000, message: { message_id: 1, date: 1700000000, chat: { id: 42 }, text: 'hi' } })
 */
export const telegramUpdateSchema = z.looseObject({
  update_id: z.number().int().nonnegative(),
  message: telegramMessageSchema.optional(),
  callback_query: telegramCallbackQuerySchema.optional(),
});
export type TelegramUpdate = z.output<typeof telegramUpdateSchema>;
