import { ChannelError, type ChannelInboundEvent, type SubscriberCreateDto } from '@bot-ai/api';
import type { MessengerChannelAttributes } from './messenger-channel-attributes.ts';
import { MESSENGER_CHANNEL_NAME } from './messenger-channel-name.ts';
import type { MessengerProfile } from './fetch-messenger-profile.ts';

/**
 * The new subscriber behind an event: its PSID, the Page it wrote to, and what the profile says
 * (names, avatar, locale, timezone; the language is the locale's first part, `en` of `en_US`).
 * Without a profile (the lookup failed) the names are empty and the rest neutral. Reads only the
 * event, so it works on an event rebuilt on another thread.
 * @example const dto = buildMessengerSubscriber(event, { first_name: 'Ada', last_name: 'Lovelace' });
 */
export function buildMessengerSubscriber(event: ChannelInboundEvent, profile: MessengerProfile = {}, now = new Date()): SubscriberCreateDto {
  const foreignId = requireMessengerSender(event);
  const { page_id = event.getRecipientForeignId() ?? '' } = event.getChannelData<Partial<MessengerChannelAttributes>>();
  const locale = profile.locale ?? '';
  return {
    foreignId,
    firstName: profile.first_name ?? '',
    lastName: profile.last_name ?? '',
    assignedTo: null,
    assignedAt: null,
    lastvisit: event.getOccurredAt(),
    retainedFrom: now,
    avatar: profile.profile_pic ?? null,
    channel: { name: MESSENGER_CHANNEL_NAME, page_id },
    language: locale.split(/[_-]/)[0] ?? '',
    locale,
    timezone: profile.timezone ?? 0,
    gender: null,
    country: null,
    labels: [],
    source: event.getSourceId(),
  };
}

/**
 * The PSID of the event's sender: whom replies, typing and the profile are for.
 * @example const psid = requireMessengerSender(event);
 */
export function requireMessengerSender(event: ChannelInboundEvent): string {
  const id = event.getSenderForeignId();
  if (!id) throw new ChannelError('MESSENGER_ERR_NO_SENDER', 'The event has no sender PSID to answer');
  return id;
}
