import { MessageInboundEvent, PayloadRejectedError, type StdIncomingMessage, type z } from '@bot-ai/api';
import type { SampleChannelAttributes } from './sample-channel-attributes.ts';
import { SAMPLE_CHANNEL_NAME } from './sample-channel-name.ts';
import { samplePayloadSchema, type SampleEvent } from './sample-payload.schema.ts';

/**
 * Turns a webhook body into message events, in the order the platform sent them. Skips events
 * with no message, with another tenant (when `tenantId` is set) or with neither text nor payload.
 * Throws `PayloadRejectedError` (HTTP 400) when the body is not in the platform's format.
 * @example const events = decodeSampleEvents(req.body, { tenantId: 'acme' });
 */
export function decodeSampleEvents(body: unknown, filter: { tenantId: string }, now = new Date()): MessageInboundEvent[] {
  const parsed = samplePayloadSchema.safeParse(body);
  if (!parsed.success) throw new PayloadRejectedError(describeIssue(parsed.error), { cause: parsed.error });
  const rawEvents = (body as { events: unknown[] }).events;
  return parsed.data.events.flatMap((event, index) => {
    if (filter.tenantId !== '' && event.tenant_id !== filter.tenantId) return [];
    const message = toIncomingMessage(event);
    return message ? [toMessageEvent(event, rawEvents[index], message, now)] : [];
  });
}

/** `quickReply` when there is a payload (its text falls back to the payload), `text` with text only. */
function toIncomingMessage({ message }: SampleEvent): StdIncomingMessage | undefined {
  const text = message?.text || undefined;
  const payload = message?.payload || undefined;
  if (payload !== undefined) return { type: 'quickReply', data: { text: text ?? payload, payload } };
  if (text !== undefined) return { type: 'text', data: { text } };
  return undefined;
}

function toMessageEvent(event: SampleEvent, rawEvent: unknown, message: StdIncomingMessage, now: Date): MessageInboundEvent {
  const channelAttributes: SampleChannelAttributes = {
    tenant_id: event.tenant_id ?? '',
    recipient_id: event.recipient?.id ?? '',
  };
  return new MessageInboundEvent(
    {
      channelName: SAMPLE_CHANNEL_NAME,
      rawEvent,
      channelAttributes,
      occurredAt: event.timestamp === undefined ? now : new Date(event.timestamp),
      eventId: event.id,
      ...(event.sender ? { senderForeignId: event.sender.id } : {}),
      ...(event.recipient ? { recipientForeignId: event.recipient.id } : {}),
    },
    message,
  );
}

/** The first problem, with its path: `events.0.id: Invalid input: expected string, received undefined`. */
function describeIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'The payload is not in the sample platform format';
  const path = issue.path.map(String).join('.');
  return path ? `${path}: ${issue.message}` : issue.message;
}
