import { z } from '@bot-ai/api';

/** The largest millisecond timestamp a `Date` can hold. */
const MAX_DATE_MS = 8.64e15;

/** A sender or recipient: only `id` and the names are read. */
const sampleUserSchema = z.looseObject({
  id: z.string().min(1),
  first_name: z.string().optional(),
  last_name: z.string().optional(),
});

/**
 * One platform event. Loose: fields the channel does not read are ignored, and only the read
 * ones are validated. A `timestamp` that is not a valid millisecond time becomes `undefined`
 * (the event then counts as happening now) rather than rejecting the payload.
 * @example sampleEventSchema.parse({ id: 'evt-1', message: { text: 'hello' } })
 */
export const sampleEventSchema = z.looseObject({
  id: z.string().min(1),
  timestamp: z.number().int().positive().max(MAX_DATE_MS).optional().catch(undefined),
  tenant_id: z.string().optional(),
  sender: sampleUserSchema.optional(),
  recipient: sampleUserSchema.optional(),
  message: z
    .looseObject({
      text: z.string().optional(),
      payload: z.string().optional(),
    })
    .optional(),
});
export type SampleEvent = z.output<typeof sampleEventSchema>;

/**
 * A webhook body of the sample platform: a batch of events, kept in order.
 * @example samplePayloadSchema.parse({ events: [] })
 */
export const samplePayloadSchema = z.looseObject({
  events: z.array(sampleEventSchema),
});
export type SamplePayload = z.output<typeof samplePayloadSchema>;
