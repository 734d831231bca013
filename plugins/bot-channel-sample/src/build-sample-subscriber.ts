import { ChannelError, type ChannelInboundEvent, type SubscriberCreateDto } from '@bot-ai/api';
import type { SampleChannelAttributes } from './sample-channel-attributes.ts';
import { SAMPLE_CHANNEL_NAME } from './sample-channel-name.ts';
import { sampleEventSchema } from './sample-payload.schema.ts';

/**
 * The new subscriber behind an event: the sender's id and names (empty when the platform sent
 * none), the event's channel attributes, and neutral values for what the platform does not tell.
 * Reads only the event, so it works on an event rebuilt on another thread.
 * @example const dto = buildSampleSubscriber(event); // { foreignId: 'user-1', firstName: 'Ada', … }
 */
export function buildSampleSubscriber(event: ChannelInboundEvent, now = new Date()): SubscriberCreateDto {
  const foreignId = event.getSenderForeignId();
  if (!foreignId) throw new ChannelError('SAMPLE_ERR_NO_SENDER', 'The event has no sender id');
  const sender = sampleEventSchema.safeParse(event.getRawEvent()).data?.sender;
  const { tenant_id = '', recipient_id = '' } = event.getChannelData<Partial<SampleChannelAttributes>>();
  return {
    foreignId,
    firstName: sender?.first_name ?? '',
    lastName: sender?.last_name ?? '',
    assignedTo: null,
    assignedAt: null,
    lastvisit: event.getOccurredAt(),
    retainedFrom: now,
    avatar: null,
    channel: { name: SAMPLE_CHANNEL_NAME, tenant_id, recipient_id },
    language: '',
    locale: '',
    timezone: 0,
    gender: null,
    country: null,
    labels: [],
    source: event.getSourceId(),
  };
}
