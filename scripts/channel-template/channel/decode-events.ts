import { MessageInboundEvent, z } from '@bot-ai/api';

/** The largest millisecond timestamp a `Date` can hold. */
const MAX_DATE_MS = 8.64e15;

/**
 * One platform event. Change it to your platform's format: loose objects ignore the fields you
 * do not read, and only the fields you read are validated.
 * @example eventSchema.parse({ id: 'evt-1', sender: { id: 'user-1' }, text: 'hello' })
 */
export const eventSchema = z.looseObject({
  id: z.string().min(1),
  timestamp: z.number().int().min(0).max(MAX_DATE_MS).optional(),
  sender: z.looseObject({ id: z.string().min(1), first_name: z.string().optional(), last_name: z.string().optional() }),
  text: z.string().optional(),
});
export type PlatformEvent = z.output<typeof eventSchema>;

/** A webhook body: a batch of events, kept in order. */
export const payloadSchema = z.looseObject({ events: z.array(eventSchema) });

/**
 * Turns a webhook body into text messages, one per event with a non-empty `text` (others, such
 * as delivery receipts, are skipped). Throws a `ZodError` (the host answers 400) when the body
 * is not in the platform's format. Stays cheap: no network calls here.
 * @example const events = decodeEvents(req.body, '__name__');
 */
export function decodeEvents(body: unknown, channelName: string, now = new Date()): MessageInboundEvent[] {
  return payloadSchema.parse(body).events.flatMap((event) => {
    if (!event.text) return [];
    const context = {
      channelName,
      rawEvent: event,
      channelAttributes: {},
      occurredAt: event.timestamp === undefined ? now : new Date(event.timestamp),
      eventId: event.id,
      senderForeignId: event.sender.id,
    };
    return [new MessageInboundEvent(context, { type: 'text', data: { text: event.text } })];
  });
}
