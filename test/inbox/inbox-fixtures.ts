/** Builders shared by the inbox tests: a source row, plain events, an INSERT counter. */
import type { PlainInboundEvent } from '@bot-ai/api';
import type { Knex } from 'knex';

export async function createSource(db: Knex, name: string): Promise<string> {
  const [row] = await db('sources').insert({ ref: `ref-${name}`, name, channel: 'sample', settings: JSON.stringify({}) }).returning('id');
  return row.id as string;
}

/** A decoded text message as the sandbox hands it over. */
export function plainEvent(eventId: string, text = `text of ${eventId}`): PlainInboundEvent {
  return {
    kind: 'message',
    channelName: 'sample',
    rawEvent: { id: eventId, message: { text } },
    channelAttributes: {},
    occurredAt: '2026-11-22T10:00:00.000Z',
    eventId,
    senderForeignId: 'user-1',
    message: { type: 'text', data: { text } },
  };
}

export function plainEvents(prefix: string, count: number): PlainInboundEvent[] {
  return Array.from({ length: count }, (_, index) => plainEvent(`${prefix}-${index}`));
}

/** Counts the INSERT statements into the inbox that Knex sends until `stop()`. */
export function countInboxInserts(db: Knex): { readonly count: number; stop(): void } {
  let count = 0;
  const onQuery = (query: { sql: string }) => {
    if (/insert\s+into\s+"?inbound_events"?/i.test(query.sql)) count += 1;
  };
  db.on('query', onQuery);
  return {
    get count() {
      return count;
    },
    stop: () => void db.removeListener('query', onQuery),
  };
}

export async function storedEventIds(db: Knex, sourceId: string, prefix: string): Promise<string[]> {
  const rows = await db('inbound_events').where({ source_id: sourceId }).andWhereLike('event_id', `${prefix}%`).orderBy('event_id').select('event_id');
  return rows.map((row) => row.event_id as string);
}
