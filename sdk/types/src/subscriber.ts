import { z } from 'zod';

/**
 * Per-channel types of the channel attributes a subscriber carries (tenant id, recipient id, …).
 * Channels add their entry by declaration merging:
 * @example
 * declare module '@bot-ai/types' {
 *   interface SubscriberChannelDict { sample: { tenant_id: string; recipient_id: string } }
 * }
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface SubscriberChannelDict {}

/** The channel attributes of a subscriber: the channel name plus that channel's own fields. */
export const subscriberChannelSchema = z.looseObject({ name: z.string().min(1) });

/**
 * What `getSubscriberData()` returns for a new subscriber; every field is validated before the
 * subscriber is created.
 * @example
 * const dto: SubscriberCreateDto = {
 *   foreignId: 'user-1', firstName: 'Ada', lastName: 'Lovelace', assignedTo: null, assignedAt: null,
 *   lastvisit: new Date(), retainedFrom: new Date(), avatar: null,
 *   channel: { name: 'sample', tenant_id: 'acme' }, language: '', locale: '', timezone: 0,
 *   gender: null, country: null, labels: [], source: sourceId,
 * };
 */
export const subscriberCreateDtoSchema = z.object({
  foreignId: z.string().min(1),
  firstName: z.string(),
  lastName: z.string(),
  assignedTo: z.string().nullable(),
  assignedAt: z.coerce.date().nullable(),
  lastvisit: z.coerce.date(),
  retainedFrom: z.coerce.date(),
  avatar: z.string().nullable(),
  channel: subscriberChannelSchema,
  language: z.string(),
  locale: z.string(),
  timezone: z.number(),
  gender: z.string().nullable(),
  country: z.string().nullable(),
  labels: z.array(z.string()),
  source: z.string().min(1),
});
export type SubscriberCreateDto = z.infer<typeof subscriberCreateDtoSchema>;
