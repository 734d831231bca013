import { MessageInboundEvent, PayloadRejectedError, type StdIncomingMessage } from '@bot-ai/api';
import { describeIssue } from './describe-issue.ts';
import type { SlackChannelAttributes } from './slack-channel-attributes.ts';
import { SLACK_CHANNEL_NAME } from './slack-channel-name.ts';
import { droppedBy, type SlackDecodeResult } from './slack-decode-result.ts';
import { toInboundAttachments } from './slack-inbound-files.ts';
import { slackNoiseRuleFor } from './slack-noise-rules.ts';
import { slackEventCallbackSchema, slackMessageEventSchema, type SlackEventCallback, type SlackMessageEvent } from './slack-payload.schema.ts';
import { stripLeadingMention, unescapeSlackText } from './slack-text.ts';
import { slackTimeToDate } from './slack-time.ts';
import { stripSlackCredentials } from './strip-slack-credentials.ts';

/** The event types that are a person writing to the bot. */
const MESSAGE_EVENT_TYPES: ReadonlySet<string> = new Set(['message', 'app_mention']);

/**
 * Turns an Events API `event_callback` into its one message event (Slack sends one event per
 * request: there is no batch), or drops it by a named rule (see `SLACK_NOISE_RULES`). The event
 * id is Slack's `event_id`, which a retry repeats, so a retried delivery is stored once.
 * Throws `PayloadRejectedError` when the body claims to be an `event_callback` but is not one.
 * @example const { events, dropped } = decodeSlackEventCallback(req.body);
 */
export function decodeSlackEventCallback(body: Record<string, unknown>, now = new Date()): SlackDecodeResult {
  const parsed = slackEventCallbackSchema.safeParse(body);
  if (!parsed.success) throw new PayloadRejectedError(describeIssue(parsed.error, 'The event_callback'), { cause: parsed.error });
  const envelope = parsed.data;
  if (!MESSAGE_EVENT_TYPES.has(envelope.event.type)) return droppedBy('other-event-type');
  const eventParsed = slackMessageEventSchema.safeParse(envelope.event);
  if (!eventParsed.success) throw new PayloadRejectedError(describeIssue(eventParsed.error, 'The message event'), { cause: eventParsed.error });
  const event = eventParsed.data;
  const botUserId = botUserIdOf(envelope);
  const message = toIncomingMessage(event, botUserId);
  const rule = slackNoiseRuleFor(event, { botUserId, apiAppId: envelope.api_app_id ?? undefined, hasContent: message !== undefined });
  if (rule || !message || !event.user) return droppedBy(rule ?? 'empty-message');
  const channelAttributes: SlackChannelAttributes = {
    team_id: envelope.team_id ?? '',
    channel_id: event.channel || event.user,
    api_app_id: envelope.api_app_id ?? '',
    ...(event.thread_ts ? { thread_ts: event.thread_ts } : {}),
  };
  const context = {
    channelName: SLACK_CHANNEL_NAME,
    rawEvent: stripSlackCredentials(body),
    channelAttributes,
    occurredAt: slackTimeToDate(event.ts) ?? slackTimeToDate(envelope.event_time) ?? now,
    eventId: envelope.event_id,
    senderForeignId: event.user,
    ...(botUserId ? { recipientForeignId: botUserId } : {}),
  };
  return { events: [new MessageInboundEvent(context, message)] };
}

/** The bot's user id: the bot authorization's, else the only one's. */
function botUserIdOf(envelope: SlackEventCallback): string | undefined {
  const authorizations = envelope.authorizations ?? [];
  const bot = authorizations.find((authorization) => authorization.is_bot === true) ?? (authorizations.length === 1 ? authorizations[0] : undefined);
  return bot?.user_id || undefined;
}

/**
 * `attachment` when the message has readable files (its text, if any, goes along), `text`
 * otherwise; the text unescaped and without the mention of the bot it starts with. Undefined
 * when nothing is left.
 */
function toIncomingMessage(event: SlackMessageEvent, botUserId: string | undefined): StdIncomingMessage | undefined {
  const raw = event.text ?? '';
  // Without the bot's id, only an app_mention surely starts with the bot's mention.
  const text = unescapeSlackText(botUserId || event.type === 'app_mention' ? stripLeadingMention(raw, botUserId) : raw);
  const hasText = text.trim() !== '';
  const attachments = toInboundAttachments(event.files);
  if (attachments.length > 0) return { type: 'attachment', data: { ...(hasText ? { text } : {}), attachments } };
  return hasText ? { type: 'text', data: { text } } : undefined;
}
