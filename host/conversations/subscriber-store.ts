import type { Knex } from 'knex';
import type { PlainSubscriberData } from '../channels/plugin-side/protocol.ts';

export interface Subscriber {
  id: string;
  sourceId: string;
  foreignId: string;
  firstName: string;
  lastName: string;
  data: Record<string, unknown>;
  created: boolean;
}

/** A row of `subscribers`. */
export interface SubscriberRow {
  id: string;
  source_id: string;
  foreign_id: string;
  first_name: string;
  last_name: string;
  data: Record<string, unknown>;
  created_at: Date;
  updated_at: Date;
}

/**
 * Subscribers: one per source and platform user id. Creation is atomic on that pair, so two
 * events of a new user handled at once (on two instances) end with one subscriber.
 */
export class SubscriberStore {
  constructor(private readonly db: Knex) {}

  /**
   * The subscriber of `foreignId` on the source; when there is none, `describe()` is asked for
   * the new subscriber's fields (the channel's getSubscriberData, in its sandbox) and the row
   * is inserted. `describe()` runs only when no subscriber exists.
   */
  async findOrCreate(sourceId: string, foreignId: string, describe: () => Promise<PlainSubscriberData>): Promise<Subscriber> {
    const existing = await this.#find(sourceId, foreignId);
    if (existing) return toSubscriber(existing, false);
    const { firstName, lastName, foreignId: _ignored, source: _source, ...data } = await describe();
    const [inserted] = await this.db<SubscriberRow>('subscribers')
      .insert({ source_id: sourceId, foreign_id: foreignId, first_name: firstName, last_name: lastName, data: JSON.stringify(data) as never })
      .onConflict(['source_id', 'foreign_id'])
      .ignore()
      .returning('*');
    if (inserted) return toSubscriber(inserted, true);
    // Created meanwhile by a concurrent event: that one is the subscriber.
    return toSubscriber((await this.#find(sourceId, foreignId))!, false);
  }

  async get(id: string): Promise<Subscriber | undefined> {
    const row = await this.db<SubscriberRow>('subscribers').where({ id }).first();
    return row ? toSubscriber(row, false) : undefined;
  }

  #find(sourceId: string, foreignId: string): Promise<SubscriberRow | undefined> {
    return this.db<SubscriberRow>('subscribers').where({ source_id: sourceId, foreign_id: foreignId }).first();
  }
}

export function toSubscriber(row: SubscriberRow, created: boolean): Subscriber {
  return {
    id: row.id,
    sourceId: row.source_id,
    foreignId: row.foreign_id,
    firstName: row.first_name,
    lastName: row.last_name,
    data: row.data,
    created,
  };
}
