import { ChannelError, z, type ChannelInboundEvent, type SubscriberCreateDto } from '@bot-ai/api';
import type { WhatsAppChannelAttributes } from './whatsapp-channel-attributes.ts';
import { WHATSAPP_CHANNEL_NAME } from './whatsapp-channel-name.ts';
import { whatsAppContactSchema } from './whatsapp-payload.schema.ts';

/** The part of the stored raw event (see the decoder) that holds the sender's profile. */
const rawEventContactsSchema = z.looseObject({ contacts: z.array(whatsAppContactSchema).optional() });

/**
 * The new subscriber behind an event. WhatsApp has no profile API: the name is the sender's
 * WhatsApp profile name carried by the webhook (`contacts[].profile.name`), split at its first
 * space into first and last name; there is no avatar, locale or language. Makes no call, so it
 * cannot fail for a platform outage; reads only the event, so it works on a rebuilt event.
 * @example const dto = buildWhatsAppSubscriber(event); // { foreignId: '16315551181', firstName: 'Ada', lastName: 'Lovelace', … }
 */
export function buildWhatsAppSubscriber(event: ChannelInboundEvent, now = new Date()): SubscriberCreateDto {
  const foreignId = event.getSenderForeignId();
  if (!foreignId) throw new ChannelError('WHATSAPP_ERR_NO_SENDER', 'The event has no sender id');
  const { firstName, lastName } = splitName(profileName(event, foreignId));
  const { phone_number_id = '', display_phone_number = '' } = event.getChannelData<Partial<WhatsAppChannelAttributes>>();
  return {
    foreignId,
    firstName,
    lastName,
    assignedTo: null,
    assignedAt: null,
    lastvisit: event.getOccurredAt(),
    retainedFrom: now,
    avatar: null,
    channel: { name: WHATSAPP_CHANNEL_NAME, phone_number_id, display_phone_number },
    language: '',
    locale: '',
    timezone: 0,
    gender: null,
    country: null,
    labels: [],
    source: event.getSourceId(),
  };
}

/** The profile name of the contact whose `wa_id` is the sender, or '' when the event has none. */
function profileName(event: ChannelInboundEvent, waId: string): string {
  const contacts = rawEventContactsSchema.safeParse(event.getRawEvent()).data?.contacts ?? [];
  return contacts.find((contact) => contact.wa_id === waId)?.profile?.name?.trim() ?? '';
}

/** `Ada King Lovelace` → `Ada` / `King Lovelace`; a single word is a first name. */
function splitName(name: string): { firstName: string; lastName: string } {
  const match = /^(\S+)\s+(.+)$/su.exec(name);
  return match ? { firstName: match[1]!, lastName: match[2]!.trim() } : { firstName: name, lastName: '' };
}
