import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import pino from 'pino';
import { MemoryRecordStore, type MemoryWriteEntry } from '../../../host/memory/records/memory-record-store.ts';
import { TestClock } from '../../support/test-clock.ts';
import { createTestDatabase, type TestDatabase } from '../../support/test-database.ts';
import { insertDefinition } from './insert-definition.ts';

let database: TestDatabase;
let store: MemoryRecordStore;
before(async () => {
  database = await createTestDatabase({ poolMax: 8 });
  store = new MemoryRecordStore(database.db, { now: new TestClock().now, logger: pino({ level: 'silent' }) });
  await insertDefinition(database.db, { slug: 'profile' });
});
after(() => database.close());

test('concurrent batches touching the same identities in opposite orders never deadlock', async () => {
  const owners = Array.from({ length: 20 }, (_, index) => `owner-${index}`);
  const batch = (order: string[], round: number): MemoryWriteEntry[] =>
    order.map((ownerId) => ({ target: { ownerId }, slug: 'profile', value: { name: `round ${round}` } }));
  for (let round = 0; round < 30; round += 1) {
    const forwards = batch(owners, round);
    const backwards = batch([...owners].reverse(), round);
    // Without a fixed lock order, opposite orders make PostgreSQL abort one with 40P01.
    await Promise.all([store.writeBatch(forwards), store.writeBatch(backwards), store.writeBatch(forwards), store.writeBatch(backwards)]);
  }
  const [row] = await database.db('memory_records').count<{ count: number }[]>({ count: '*' });
  assert.equal(row?.count, 20);
});
