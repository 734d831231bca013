import { z } from '@bot-ai/api';

/*
 * Slack's request bodies. Loose objects: fields the channel does not read are ignored, and only
 * the read ones are validated. Values Slack may send as `null` are `nullish`.
 */

/**
 * Any Events API body: `url_verification`, `event_callback`, `app_rate_limited`, … told apart by `type`.
 * @example slackEventsApiBodySchema.parse({ type: 'url_verification', challenge: 'abc' })
 */
export const slackEventsApiBodySchema = z.looseObject({ type: z.string().min(1) });

/**
 * The handshake Slack sends when a Request URL is saved: answered with its `challenge`.
 * @example slackUrlVerificationSchema.parse({ token: 'Jhj5dZrVaK7ZwHHjRyZWjbDl', challenge: '3eZbrw1a…', type: 'url_verification' })
 */
export const slackUrlVerificationSchema = z.looseObject({
  type: z.literal('url_verification'),
  challenge: z.string().min(1),
});

/** One app authorization the event is visible to; the bot's tells the bot's own user id. */
const slackAuthorizationSchema = z.looseObject({
  user_id: z.string().nullish(),
  is_bot: z.boolean().nullish(),
});

/**
 * An Events API delivery: one event (`event`, whatever its type) and Slack's id for it,
 * `event_id`, which a retry (`X-Slack-Retry-Num`) repeats.
 * @example slackEventCallbackSchema.parse({ type: 'event_callback', team_id: 'T061EG9R6', event_id: 'Ev0MDYHUEL', event: { type: 'message' } })
 */
export const slackEventCallbackSchema = z.looseObject({
  type: z.literal('event_callback'),
  team_id: z.string().nullish(),
  api_app_id: z.string().nullish(),
  event_id: z.string().min(1),
  event_time: z.number().nullish(),
  event: z.looseObject({ type: z.string().min(1) }),
  authorizations: z.array(slackAuthorizationSchema).nullish(),
});
export type SlackEventCallback = z.output<typeof slackEventCallbackSchema>;

/**
 * A file of a message. Files Slack does not show the app (`mode: 'tombstone'`, `hidden_by_limit`)
 * come with little more than the id; Slack Connect files may need a `files.info` call
 * (`file_access: 'check_file_info'`) before they have a download URL.
 * @example slackFileSchema.parse({ id: 'F0123ABCD', name: 'photo.jpg', mimetype: 'image/jpeg' })
 */
export const slackFileSchema = z.looseObject({
  id: z.string().min(1),
  name: z.string().nullish(),
  title: z.string().nullish(),
  mimetype: z.string().nullish(),
  mode: z.string().nullish(),
  url_private: z.string().nullish(),
  url_private_download: z.string().nullish(),
});
export type SlackFile = z.output<typeof slackFileSchema>;

/**
 * A `message` or `app_mention` event. `files` stays unparsed here: a file in an unexpected
 * shape is skipped, not a reason to refuse the delivery.
 * @example slackMessageEventSchema.parse({ type: 'message', channel: 'D024BE91L', user: 'U2147483697', text: 'Hello', ts: '1355517523.000005' })
 */
export const slackMessageEventSchema = z.looseObject({
  type: z.string().min(1),
  subtype: z.string().nullish(),
  user: z.string().nullish(),
  bot_id: z.string().nullish(),
  app_id: z.string().nullish(),
  text: z.string().nullish(),
  ts: z.string().nullish(),
  thread_ts: z.string().nullish(),
  channel: z.string().nullish(),
  channel_type: z.string().nullish(),
  files: z.array(z.unknown()).nullish(),
  user_profile: z
    .looseObject({
      first_name: z.string().nullish(),
      real_name: z.string().nullish(),
      image_72: z.string().nullish(),
    })
    .nullish()
    .catch(undefined),
});
export type SlackMessageEvent = z.output<typeof slackMessageEventSchema>;

/**
 * Any interactivity payload (the JSON in the `payload` field of the form Slack posts):
 * `block_actions`, `view_submission`, `shortcut`, … told apart by `type`.
 * @example slackInteractionSchema.parse({ type: 'view_submission' })
 */
export const slackInteractionSchema = z.looseObject({ type: z.string().min(1) });

const slackTextObjectSchema = z.looseObject({ text: z.string() });

/** One element the user acted on: a button (`value`, or `url` for a link button) or a menu choice. */
const slackActionSchema = z.looseObject({
  type: z.string().nullish(),
  action_id: z.string().nullish(),
  value: z.string().nullish(),
  url: z.string().nullish(),
  text: slackTextObjectSchema.nullish(),
  selected_option: z.looseObject({ value: z.string(), text: slackTextObjectSchema }).nullish(),
  action_ts: z.string().nullish(),
});
export type SlackAction = z.output<typeof slackActionSchema>;

/**
 * A click on an interactive element of a message (a button the bot sent). `trigger_id` is
 * Slack's id of the interaction.
 * @example slackBlockActionsSchema.parse({ type: 'block_actions', trigger_id: '1232…', user: { id: 'UA8RXUSPL' }, actions: [] })
 */
export const slackBlockActionsSchema = z.looseObject({
  type: z.literal('block_actions'),
  trigger_id: z.string().min(1),
  api_app_id: z.string().nullish(),
  user: z.looseObject({ id: z.string().min(1), team_id: z.string().nullish() }),
  team: z.looseObject({ id: z.string().nullish() }).nullish(),
  channel: z.looseObject({ id: z.string().nullish() }).nullish(),
  container: z.looseObject({ channel_id: z.string().nullish(), thread_ts: z.string().nullish() }).nullish(),
  message: z.looseObject({ thread_ts: z.string().nullish() }).nullish(),
  actions: z.array(slackActionSchema),
});
export type SlackBlockActions = z.output<typeof slackBlockActionsSchema>;
