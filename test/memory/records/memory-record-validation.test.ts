import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import pino from 'pino';
import { MemoryRecordStore } from '../../../host/memory/records/memory-record-store.ts';
import { TestClock } from '../../support/test-clock.ts';
import { createTestDatabase, type TestDatabase } from '../../support/test-database.ts';
import { insertDefinition } from './insert-definition.ts';

let database: TestDatabase;
let store: MemoryRecordStore;
const warnings: unknown[] = [];

before(async () => {
  database = await createTestDatabase();
  const logger = pino({ level: 'warn' }, { write: (line: string) => warnings.push(JSON.parse(line)) });
  store = new MemoryRecordStore(database.db, { now: new TestClock().now, logger });
  await insertDefinition(database.db, { slug: 'person' });
  await insertDefinition(database.db, { slug: 'pet' });
});
after(() => database.close());

async function recordCount(): Promise<number> {
  const [row] = await database.db('memory_records').count<{ count: number }[]>({ count: '*' });
  return row!.count;
}

const rejections = [
  { name: 'an extra property', value: { name: 'Ada', nickname: 'A' }, path: '/nickname' },
  { name: 'a wrong type', value: { name: 'Ada', age: 'old' }, path: '/age' },
  { name: 'an array instead of an object', value: ['Ada'], path: '/' },
];

for (const { name, value, path } of rejections) {
  test(`a value with ${name} is rejected, naming the slug and the path, and nothing is written`, async () => {
    await assert.rejects(store.write({ ownerId: 'o1' }, { person: value }), (error: { code: string; details: { invalid: unknown[] } }) => {
      assert.equal(error.code, 'BOT_ERR_MEMORY_VALUE_INVALID');
      const [invalid] = error.details.invalid as { slug: string; errors: { path: string }[] }[];
      assert.equal(invalid?.slug, 'person');
      assert.ok(invalid?.errors.some((problem) => problem.path === path), JSON.stringify(invalid?.errors));
      return true;
    });
    assert.equal(await recordCount(), 0);
  });
}

test('a multi-slug write with one bad value writes none of the slugs', async () => {
  await assert.rejects(store.write({ ownerId: 'o2' }, { person: { name: 'Ada' }, pet: { age: 'three' } }), {
    code: 'BOT_ERR_MEMORY_VALUE_INVALID',
  });
  assert.equal(await recordCount(), 0);
});

test('an unknown slug is rejected and nothing is written, even beside a known one', async () => {
  await assert.rejects(store.write({ ownerId: 'o3' }, { person: { name: 'Ada' }, no_such_memory: {} }), {
    code: 'BOT_ERR_MEMORY_SLUG_UNKNOWN',
    details: { slugs: ['no_such_memory'] },
  });
  assert.equal(await recordCount(), 0);
});

test('bad slug characters are rejected before any database query', async () => {
  let queries = 0;
  const countQuery = () => (queries += 1);
  database.db.on('query', countQuery);
  try {
    await assert.rejects(store.write({ ownerId: 'o4' }, { person: { name: 'Ada' }, 'Bad-Slug': {} }), {
      code: 'BOT_ERR_MEMORY_SLUG_INVALID',
      details: { slugs: ['Bad-Slug'] },
    });
  } finally {
    database.db.off('query', countQuery);
  }
  assert.equal(queries, 0);
});

test('a record made invalid by a schema change is skipped on load, reported and logged', async () => {
  const id = await insertDefinition(database.db, { slug: 'profile' });
  const written = await store.write({ ownerId: 'o5' }, { profile: { name: 'Ada', age: 36 }, person: { name: 'Ada' } });
  const record = written.find((item) => item.slug === 'profile');
  const stricter = { type: 'object', properties: { name: { type: 'string', description: 'Name' } }, additionalProperties: false };
  await database.db('memory_definitions').where({ id }).update({ schema: stricter, updated_at: new Date(Date.now() + 60_000) });

  const loaded = await store.load({ ownerId: 'o5' });

  assert.deepEqual(loaded.values, { person: { name: 'Ada' } });
  assert.deepEqual(loaded.invalid, [{ slug: 'profile', recordId: record?.id, errors: [{ path: '/age', message: 'is not an allowed property' }] }]);
  assert.ok(warnings.some((line) => JSON.stringify(line).includes('"recordId":"' + record?.id)));
});

test('a write after a schema change is checked against the new schema', async () => {
  const id = await insertDefinition(database.db, { slug: 'settings' });
  await store.write({ ownerId: 'o6' }, { settings: { age: 1 } });
  const onlyName = { type: 'object', properties: { name: { type: 'string', description: 'Name' } }, additionalProperties: false };
  await database.db('memory_definitions').where({ id }).update({ schema: onlyName, updated_at: new Date(Date.now() + 60_000) });

  await assert.rejects(store.write({ ownerId: 'o6' }, { settings: { age: 2 } }), { code: 'BOT_ERR_MEMORY_VALUE_INVALID' });
  await store.write({ ownerId: 'o6' }, { settings: { name: 'ok' } });
});
