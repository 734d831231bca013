import { ChannelError, type ChannelInboundEvent, type SubscriberCreateDto } from '@bot-ai/api';
import { eventSchema } from './decode-events.ts';

/**
 * The new subscriber behind an event: the sender's id and names, neutral values for what the
 * platform does not tell. Reads only the event (it may have been rebuilt on another thread).
 * Change: map the profile fields your platform sends (language, locale, avatar, …).
 * @example const dto = buildSubscriber(event, '__name__'); // { foreignId: 'user-1', … }
 */
export function buildSubscriber(event: ChannelInboundEvent, channelName: string, now = new Date()): SubscriberCreateDto {
  const foreignId = event.getSenderForeignId();
  if (!foreignId) throw new ChannelError('__NAME___ERR_NO_SENDER', 'The event has no sender id');
  const sender = eventSchema.safeParse(event.getRawEvent()).data?.sender;
  return {
    foreignId,
    firstName: sender?.first_name ?? '',
    lastName: sender?.last_name ?? '',
    assignedTo: null,
    assignedAt: null,
    lastvisit: event.getOccurredAt(),
    retainedFrom: now,
    avatar: null,
    channel: { name: channelName },
    language: '',
    locale: '',
    timezone: 0,
    gender: null,
    country: null,
    labels: [],
    source: event.getSourceId(),
  };
}
