import type { StdIncomingMessage } from '@bot-ai/types';
import type { ChannelSource } from '../source.ts';
import type { InboundEventContext } from './inbound-event-context.ts';

/** The plain-data form of an event: what is stored and what crosses the worker boundary. */
export interface PlainInboundEvent {
  kind: 'channel' | 'message' | 'synthetic';
  channelName: string;
  rawEvent: unknown;
  channelAttributes: Record<string, unknown>;
  /** ISO 8601. */
  occurredAt: string;
  eventId: string;
  senderForeignId?: string;
  recipientForeignId?: string;
  message?: StdIncomingMessage;
}

/**
 * An event from a platform that is not a message (a delivery receipt, a read mark, …). Message
 * events use {@link MessageInboundEvent}.
 * @example new ChannelInboundEvent({ channelName: 'sample', rawEvent, channelAttributes: {}, occurredAt: new Date(), eventId: 'e1' })
 */
export class ChannelInboundEvent {
  #source: ChannelSource | undefined;

  constructor(readonly context: InboundEventContext) {}

  getChannelName(): string {
    return this.context.channelName;
  }

  getEventId(): string {
    return this.context.eventId;
  }

  getOccurredAt(): Date {
    return this.context.occurredAt;
  }

  getRawEvent<T = unknown>(): T {
    return this.context.rawEvent as T;
  }

  /** The platform id of the user who sent the event; without one, no workflow runs. */
  getSenderForeignId(): string | undefined {
    return this.context.senderForeignId;
  }

  getRecipientForeignId(): string | undefined {
    return this.context.recipientForeignId;
  }

  /** The channel attributes of the sender (tenant id, recipient id, …). */
  getChannelData<T extends Record<string, unknown> = Record<string, unknown>>(): T {
    return this.context.channelAttributes as T;
  }

  /** The id of the source this event came from; set by the host. */
  getSourceId(): string {
    return this.#requireSource().id;
  }

  /** The raw settings of that source; parse them with the channel's schema. */
  getSourceSettings<T = Record<string, unknown>>(): T {
    return this.#requireSource().settings as T;
  }

  /** Called by the host once it knows which source the event belongs to. */
  bindSource(source: ChannelSource): this {
    this.#source = source;
    return this;
  }

  toPlain(): PlainInboundEvent {
    return {
      kind: 'channel',
      channelName: this.context.channelName,
      rawEvent: this.context.rawEvent,
      channelAttributes: this.context.channelAttributes,
      occurredAt: this.context.occurredAt.toISOString(),
      eventId: this.context.eventId,
      ...(this.context.senderForeignId === undefined ? {} : { senderForeignId: this.context.senderForeignId }),
      ...(this.context.recipientForeignId === undefined ? {} : { recipientForeignId: this.context.recipientForeignId }),
    };
  }

  #requireSource(): ChannelSource {
    if (!this.#source) throw new Error('This event is not bound to a source yet');
    return this.#source;
  }
}
