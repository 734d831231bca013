import type { SubscriberCreateDto } from '@bot-ai/types';
import { ChannelError } from '../../../errors.ts';
import type { ChannelInboundEvent } from '../../../events/channel-inbound-event.ts';
import { WEB_CHANNEL_NAME } from './web-channel-name.ts';

/**
 * The new subscriber behind a chat session: the session id as foreign id, no names (a web
 * visitor is anonymous until a workflow learns more), the session as channel attributes.
 * @example const dto = buildWebSubscriber(event); // { foreignId: '<session id>', firstName: '', … }
 */
export function buildWebSubscriber(event: ChannelInboundEvent, now = new Date()): SubscriberCreateDto {
  const foreignId = event.getSenderForeignId();
  if (!foreignId) throw new ChannelError('WEB_ERR_NO_SESSION', 'The event has no session');
  return {
    foreignId,
    firstName: '',
    lastName: '',
    assignedTo: null,
    assignedAt: null,
    lastvisit: event.getOccurredAt(),
    retainedFrom: now,
    avatar: null,
    channel: { name: WEB_CHANNEL_NAME, session_id: foreignId },
    language: '',
    locale: '',
    timezone: 0,
    gender: null,
    country: null,
    labels: [],
    source: event.getSourceId(),
  };
}
