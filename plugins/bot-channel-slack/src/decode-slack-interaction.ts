import { MessageInboundEvent, PayloadRejectedError, type StdIncomingMessage } from '@bot-ai/api';
import { describeIssue } from './describe-issue.ts';
import type { SlackChannelAttributes } from './slack-channel-attributes.ts';
import { SLACK_CHANNEL_NAME } from './slack-channel-name.ts';
import { droppedBy, type SlackDecodeResult } from './slack-decode-result.ts';
import { slackBlockActionsSchema, slackInteractionSchema, type SlackAction } from './slack-payload.schema.ts';
import { slackTimeToDate } from './slack-time.ts';
import { stripSlackCredentials } from './strip-slack-credentials.ts';

/**
 * Turns an interactivity payload into a `quickReply` event: a click on a button the bot sent
 * (`{ text: the button's text, payload: its value }`) or a menu choice. The event id is
 * `block_actions:<trigger_id>`. Other interactions (`view_submission`, shortcuts, …) and clicks
 * on link buttons are dropped by name. Throws `PayloadRejectedError` for a payload that is not
 * an interaction, or a `block_actions` without its user, trigger id or actions.
 * @example const { events } = decodeSlackInteraction(JSON.parse(form.get('payload')));
 */
export function decodeSlackInteraction(payload: unknown, now = new Date()): SlackDecodeResult {
  const interaction = slackInteractionSchema.safeParse(payload);
  if (!interaction.success) throw new PayloadRejectedError(describeIssue(interaction.error, 'The interaction payload'), { cause: interaction.error });
  if (interaction.data.type !== 'block_actions') return droppedBy('other-interaction-type');
  const parsed = slackBlockActionsSchema.safeParse(payload);
  if (!parsed.success) throw new PayloadRejectedError(describeIssue(parsed.error, 'The block_actions payload'), { cause: parsed.error });
  const click = parsed.data;
  // Slack sends one action per click; the first that is a choice counts.
  const choice = click.actions.map((action) => ({ action, message: toQuickReply(action) })).find((candidate) => candidate.message !== undefined);
  if (!choice?.message) return droppedBy('no-usable-action');
  const threadTs = click.container?.thread_ts || click.message?.thread_ts || undefined;
  const channelAttributes: SlackChannelAttributes = {
    team_id: click.team?.id || click.user.team_id || '',
    // A click in the App Home or a modal has no channel: the user's id reaches their DM with the app.
    channel_id: click.channel?.id || click.container?.channel_id || click.user.id,
    api_app_id: click.api_app_id ?? '',
    ...(threadTs ? { thread_ts: threadTs } : {}),
  };
  const context = {
    channelName: SLACK_CHANNEL_NAME,
    rawEvent: stripSlackCredentials(interaction.data),
    channelAttributes,
    occurredAt: slackTimeToDate(choice.action.action_ts) ?? now,
    eventId: `block_actions:${click.trigger_id}`,
    senderForeignId: click.user.id,
  };
  return { events: [new MessageInboundEvent(context, choice.message)] };
}

/**
 * A button with a value, or a menu's selected option; undefined for a link button (the
 * browser opened its URL) and elements with no value.
 */
function toQuickReply(action: SlackAction): StdIncomingMessage | undefined {
  if (action.selected_option) return { type: 'quickReply', data: { text: action.selected_option.text.text, payload: action.selected_option.value } };
  if (action.url || !action.value) return undefined;
  return { type: 'quickReply', data: { text: action.text?.text || action.value, payload: action.value } };
}
