import { ChannelError, type ChannelInboundEvent, type SubscriberCreateDto } from '@bot-ai/api';
import type { SlackChannelAttributes } from './slack-channel-attributes.ts';
import { SLACK_CHANNEL_NAME } from './slack-channel-name.ts';
import type { SlackProfile } from './slack-profile.ts';

/**
 * The new subscriber behind an event: the sender's Slack user id, the `profile` (from
 * `users.info`, or from the event when that failed), the workspace, conversation and app of the
 * event, and neutral values for what Slack does not tell. The language is the locale's
 * (`en-US` → `en`). Reads only the event, so it works on an event rebuilt on another thread.
 * @example const dto = buildSlackSubscriber(event, profile); // { foreignId: 'U061F7AUR', firstName: 'Ada', … }
 */
export function buildSlackSubscriber(event: ChannelInboundEvent, profile: SlackProfile, now = new Date()): SubscriberCreateDto {
  const foreignId = event.getSenderForeignId();
  if (!foreignId) throw new ChannelError('SLACK_ERR_NO_SENDER', 'The event has no sender id');
  const { team_id = '', channel_id = '', api_app_id = '' } = event.getChannelData<Partial<SlackChannelAttributes>>();
  return {
    foreignId,
    firstName: profile.firstName,
    lastName: profile.lastName,
    assignedTo: null,
    assignedAt: null,
    lastvisit: event.getOccurredAt(),
    retainedFrom: now,
    avatar: profile.avatar,
    channel: { name: SLACK_CHANNEL_NAME, team_id, channel_id, api_app_id },
    language: profile.locale.split(/[-_]/)[0] ?? '',
    locale: profile.locale,
    timezone: profile.timezone,
    gender: null,
    country: null,
    labels: [],
    source: event.getSourceId(),
  };
}
