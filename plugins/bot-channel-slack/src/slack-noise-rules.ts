import type { SlackMessageEvent } from './slack-payload.schema.ts';
import { mentionsUser } from './slack-text.ts';

/**
 * Why a Slack delivery produced no event. Each name is one explicit rule:
 * - `url-verification`: the Request URL handshake (answered in `verifySignature`);
 * - `other-envelope-type`: an Events API body other than `event_callback` (`app_rate_limited`, …);
 * - `other-event-type`: an event other than `message` and `app_mention` (`reaction_added`, …);
 * - the message rules of {@link SLACK_NOISE_RULES};
 * - `slash-command`, `ssl-check`: forms this channel does not serve (no slash command is set up);
 * - `other-interaction-type`: an interaction other than `block_actions` (`view_submission`, …);
 * - `no-usable-action`: a click with no choice in it (a link button, whose URL the browser opened).
 */
export type SlackDropRule =
  | 'url-verification'
  | 'other-envelope-type'
  | 'other-event-type'
  | SlackNoiseRuleName
  | 'slash-command'
  | 'ssl-check'
  | 'other-interaction-type'
  | 'no-usable-action';

/** The names of the message rules. */
export type SlackNoiseRuleName = 'own-message' | 'bot-message' | 'edit-or-system-subtype' | 'no-sender' | 'mention-echo' | 'empty-message';

/** What the rules know besides the event: who the bot is. */
export interface SlackNoiseContext {
  /** The bot's own user id (from `authorizations`), when Slack said. */
  botUserId: string | undefined;
  /** The app the delivery is for. */
  apiAppId: string | undefined;
  /** Whether the event holds text (without the bot's mention) or a file the app can read. */
  hasContent: boolean;
}

/** One rule: a name (for the logs and tests), why it exists, and the test. */
export interface SlackNoiseRule {
  name: SlackNoiseRuleName;
  why: string;
  drops(event: SlackMessageEvent, context: SlackNoiseContext): boolean;
}

/**
 * Subtypes that are still a person writing: a message with files, a thread reply also sent to
 * the channel, a `/me` message. Every other subtype is an edit, a deletion or a notice.
 */
const USER_SUBTYPES: ReadonlySet<string> = new Set(['file_share', 'thread_broadcast', 'me_message']);

/**
 * The message events that are not a person talking to the bot, in the order they are tried.
 * The first that matches names the drop.
 * @example SLACK_NOISE_RULES.find((rule) => rule.drops(event, context))?.name // 'bot-message'
 */
export const SLACK_NOISE_RULES: readonly SlackNoiseRule[] = [
  {
    name: 'own-message',
    why: "The bot's own messages (its user or its app) come back as events: answering them would loop.",
    drops: (event, { botUserId, apiAppId }) => (!!botUserId && event.user === botUserId) || (!!apiAppId && event.app_id === apiAppId),
  },
  {
    name: 'bot-message',
    why: 'Messages of other bots and integrations (`bot_id`, subtype `bot_message`) are not a subscriber; two bots would talk forever.',
    drops: (event) => !!event.bot_id || event.subtype === 'bot_message',
  },
  {
    name: 'edit-or-system-subtype',
    why: 'Edits (`message_changed`), deletions (`message_deleted`), joins (`channel_join`) and other notices are not new messages.',
    drops: (event) => !!event.subtype && !USER_SUBTYPES.has(event.subtype),
  },
  {
    name: 'no-sender',
    why: 'Without a user there is no one to answer.',
    drops: (event) => !event.user,
  },
  {
    name: 'mention-echo',
    why: 'A channel message that mentions the bot also arrives as an `app_mention` event (other event id): only that one is kept.',
    drops: (event, { botUserId }) => event.type === 'message' && event.channel_type !== 'im' && !!botUserId && mentionsUser(event.text ?? '', botUserId),
  },
  {
    name: 'empty-message',
    why: 'No text (once the mention of the bot is taken off) and no file the app can read: nothing to answer.',
    drops: (_event, { hasContent }) => !hasContent,
  },
];

/**
 * The name of the first rule that drops `event`, or undefined for a message to decode.
 * @example slackNoiseRuleFor({ type: 'message', subtype: 'message_changed' }, context) // 'edit-or-system-subtype'
 */
export function slackNoiseRuleFor(event: SlackMessageEvent, context: SlackNoiseContext): SlackNoiseRuleName | undefined {
  return SLACK_NOISE_RULES.find((rule) => rule.drops(event, context))?.name;
}

