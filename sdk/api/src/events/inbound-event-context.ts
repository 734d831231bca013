/**
 * What every inbound event is built from.
 * @example
 * const context: InboundEventContext = {
 *   channelName: 'sample', rawEvent: event, channelAttributes: { tenant_id: 'acme' },
 *   occurredAt: new Date(event.timestamp), eventId: event.id,
 *   senderForeignId: event.sender.id, recipientForeignId: event.recipient?.id,
 * };
 */
export interface InboundEventContext {
  channelName: string;
  /** The platform's event as received; must be plain JSON data (it is stored and crosses threads). */
  rawEvent: unknown;
  /** Platform data of the user/channel relationship (tenant id, recipient id, …). */
  channelAttributes: Record<string, unknown>;
  occurredAt: Date;
  /** The platform's id of the event; retries of one event carry the same id (deduplication key). */
  eventId: string;
  senderForeignId?: string;
  recipientForeignId?: string;
}
