import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import pino from 'pino';
import { MemoryRecordStore } from '../../../host/memory/records/memory-record-store.ts';
import { TestClock } from '../../support/test-clock.ts';
import { createTestDatabase, type TestDatabase } from '../../support/test-database.ts';
import { insertDefinition } from './insert-definition.ts';
import { untilUpsertWaitsForLock } from './until-upsert-waits-for-lock.ts';
import { statementsDuring as statementsDuringOn } from '../../support/statements-during.ts';

let database: TestDatabase;
let store: MemoryRecordStore;
const clock = new TestClock('2030-01-01T00:00:00.000Z');
const ONLY_NAME = { type: 'object', properties: { name: { type: 'string', description: 'Name' } }, additionalProperties: false };

before(async () => {
  database = await createTestDatabase();
  store = newStore();
});
after(() => database.close());

function newStore(): MemoryRecordStore {
  return new MemoryRecordStore(database.db, { now: clock.now, logger: pino({ level: 'silent' }) });
}

/** Changes a definition behind the store's back, as another host instance would: new version included. */
async function changeDefinition(id: string, columns: Record<string, unknown>): Promise<void> {
  const version = database.db.raw(`updated_at + interval '1 millisecond'`);
  await database.db('memory_definitions').where({ id }).update({ ...columns, updated_at: version });
}

const statementsDuring = (action: () => Promise<unknown>) => statementsDuringOn(database.db, action);

async function storedValue(ownerId: string, slug: string): Promise<unknown> {
  return (await store.load({ ownerId })).values[slug];
}

test('a repeat write of a cached slug is one statement', async () => {
  await insertDefinition(database.db, { slug: 'fast' });

  const first = await statementsDuring(() => store.write({ ownerId: 'a' }, { fast: { age: 1 } }));
  const repeat = await statementsDuring(() => store.write({ ownerId: 'a' }, { fast: { age: 2 } }));

  assert.ok(first.length > 1, `the first write reads the definition: ${first.join(' | ')}`);
  assert.equal(repeat.length, 1, repeat.join(' | '));
  assert.deepEqual(await storedValue('a', 'fast'), { age: 2 });
});

test('a value valid under the cached schema but not the current one is rejected', async () => {
  const id = await insertDefinition(database.db, { slug: 'narrowed' });
  await store.write({ ownerId: 'b' }, { narrowed: { age: 1 } });
  await changeDefinition(id, { schema: ONLY_NAME });

  await assert.rejects(store.write({ ownerId: 'b' }, { narrowed: { age: 2 } }), {
    code: 'BOT_ERR_MEMORY_VALUE_INVALID',
    details: { invalid: [{ slug: 'narrowed', errors: [{ path: '/age', message: 'is not an allowed property' }] }] },
  });
  const rows = await database.db('memory_records').where({ owner_id: 'b' }).select('value');
  assert.deepEqual(rows, [{ value: { age: 1 } }]);
});

test('a value invalid under the cached schema but valid under the current one is written', async () => {
  const id = await insertDefinition(database.db, { slug: 'widened', properties: ONLY_NAME.properties });
  await store.write({ ownerId: 'c' }, { widened: { name: 'x' } });
  await changeDefinition(id, { schema: { ...ONLY_NAME, properties: { ...ONLY_NAME.properties, age: { type: 'integer', description: 'Age' } } } });

  await store.write({ ownerId: 'c' }, { widened: { name: 'x', age: 3 } });
  assert.deepEqual(await storedValue('c', 'widened'), { name: 'x', age: 3 });
});

test('a definition deleted after being cached is an unknown slug and nothing is written', async () => {
  const doomed = await insertDefinition(database.db, { slug: 'doomed' });
  await insertDefinition(database.db, { slug: 'survivor' });
  await store.write({ ownerId: 'd' }, { doomed: { age: 1 }, survivor: { age: 1 } });
  await database.db('memory_definitions').where({ id: doomed }).delete();

  await assert.rejects(store.write({ ownerId: 'd' }, { doomed: { age: 2 }, survivor: { age: 2 } }), {
    code: 'BOT_ERR_MEMORY_SLUG_UNKNOWN',
    details: { slugs: ['doomed'] },
  });
  assert.deepEqual(await storedValue('d', 'survivor'), { age: 1 });
});

test('a TTL changed since caching is applied to the write', async () => {
  const id = await insertDefinition(database.db, { slug: 'shortened', ttlSeconds: 3600 });
  await store.write({ ownerId: 'e' }, { shortened: { age: 1 } });
  await changeDefinition(id, { ttl_seconds: 60 });

  const [record] = await store.write({ ownerId: 'e' }, { shortened: { age: 2 } });
  assert.equal(record?.expiresAt, new Date(clock.now().getTime() + 60_000).toISOString());
});

test('a multi-slug write where one definition changed is still all or nothing', async () => {
  await insertDefinition(database.db, { slug: 'steady' });
  const changed = await insertDefinition(database.db, { slug: 'changed' });
  await store.write({ ownerId: 'f' }, { steady: { age: 1 }, changed: { age: 1 } });
  await changeDefinition(changed, { schema: ONLY_NAME });

  await assert.rejects(store.write({ ownerId: 'f' }, { steady: { age: 2 }, changed: { age: 2 } }), { code: 'BOT_ERR_MEMORY_VALUE_INVALID' });
  assert.deepEqual(await storedValue('f', 'steady'), { age: 1 });

  const records = await store.write({ ownerId: 'f' }, { steady: { age: 3 }, changed: { name: 'ok' } });
  assert.equal(records.length, 2);
});

test('a definition changed while a write waits for it is checked against its new schema', async () => {
  const id = await insertDefinition(database.db, { slug: 'contested' });
  await store.write({ ownerId: 'g' }, { contested: { age: 1 } });
  const trx = await database.db.transaction();
  await trx('memory_definitions').where({ id }).forUpdate().first();
  await trx('memory_definitions').where({ id }).update({ schema: ONLY_NAME, updated_at: trx.raw(`updated_at + interval '1 millisecond'`) });

  const outcome = store.write({ ownerId: 'g' }, { contested: { age: 2 } }).then(() => 'written', (error: { code?: string }) => error.code);
  try {
    await untilUpsertWaitsForLock(database.db);
  } finally {
    await trx.commit();
  }

  assert.equal(await outcome, 'BOT_ERR_MEMORY_VALUE_INVALID');
  assert.deepEqual(await database.db('memory_records').where({ owner_id: 'g' }).select('value'), [{ value: { age: 1 } }]);
});

for (const cache of ['cold', 'warm'] as const) {
  test(`concurrent first writes to one identity with a ${cache} cache leave exactly one record`, async () => {
    await insertDefinition(database.db, { slug: `first_${cache}` });
    const writer = newStore();
    if (cache === 'warm') await writer.write({ ownerId: 'someone-else' }, { [`first_${cache}`]: { age: 0 } });

    const writes = Array.from({ length: 50 }, (_, index) => writer.write({ ownerId: `h-${cache}` }, { [`first_${cache}`]: { age: index } }));
    const results = await Promise.all(writes);

    assert.equal(new Set(results.map(([record]) => record?.id)).size, 1);
    assert.equal((await store.list({ ownerId: `h-${cache}`, limit: 10, offset: 0 })).total, 1);
  });
}
