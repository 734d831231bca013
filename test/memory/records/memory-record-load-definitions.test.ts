import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, test } from 'node:test';
import pino from 'pino';
import { MemoryRecordStore } from '../../../host/memory/records/memory-record-store.ts';
import { TestClock } from '../../support/test-clock.ts';
import { createTestDatabase, type TestDatabase } from '../../support/test-database.ts';
import { PERSON_PROPERTIES, insertDefinition } from './insert-definition.ts';

let database: TestDatabase;
let store: MemoryRecordStore;
const warnings: unknown[] = [];
let globalId: string;
let threadId: string;

before(async () => {
  database = await createTestDatabase();
  const logger = pino({ level: 'warn' }, { write: (line: string) => warnings.push(JSON.parse(line)) });
  store = new MemoryRecordStore(database.db, { now: new TestClock().now, logger });
  globalId = await insertDefinition(database.db, { slug: 'profile' });
  threadId = await insertDefinition(database.db, { slug: 'topic', scope: 'thread' });
  await store.write({ ownerId: 'o1', threadId: 't1' }, { profile: { name: 'Ada' }, topic: { name: 'billing' } });
});
after(() => database.close());

const SCHEMA = { type: 'object', properties: PERSON_PROPERTIES, additionalProperties: false };

test('with withDefinitions, the listed definitions that exist come back by id, their schema parsed', async () => {
  const gone = randomUUID();
  const loaded = await store.load({ ownerId: 'o1', threadId: 't1' }, { definitionIds: [threadId, gone], withDefinitions: true });
  assert.deepEqual(loaded.values, { profile: { name: 'Ada' }, topic: { name: 'billing' } });
  assert.deepEqual(loaded.invalid, []);
  assert.deepEqual([...loaded.definitions.entries()], [
    [threadId, { id: threadId, name: 'Definition topic', slug: 'topic', scope: 'thread', schema: SCHEMA }],
  ]);
});

test('global definitions are not returned unless listed, and an empty list returns none', async () => {
  const loaded = await store.load({ ownerId: 'o1', threadId: 't1' }, { definitionIds: [], withDefinitions: true });
  assert.deepEqual(loaded.values, { profile: { name: 'Ada' } });
  assert.equal(loaded.definitions.size, 0);
  const listed = await store.load({ ownerId: 'o1' }, { definitionIds: [globalId], withDefinitions: true });
  assert.deepEqual([...listed.definitions.keys()], [globalId]);
});

test('without withDefinitions the result keeps its shape: values and invalid only', async () => {
  const loaded = await store.load({ ownerId: 'o1', threadId: 't1' }, { definitionIds: [threadId] });
  assert.deepEqual(Object.keys(loaded).sort(), ['invalid', 'values']);
});

test('a record that no longer matches its schema is still skipped and logged when definitions are read too', async () => {
  const id = await insertDefinition(database.db, { slug: 'prefs', scope: 'thread' });
  await store.write({ ownerId: 'o2', threadId: 't1' }, { prefs: { name: 'Ada', age: 36 } });
  const onlyName = { type: 'object', properties: { name: PERSON_PROPERTIES.name }, additionalProperties: false };
  await database.db('memory_definitions').where({ id }).update({ schema: onlyName, updated_at: new Date(Date.now() + 60_000) });

  const loaded = await store.load({ ownerId: 'o2', threadId: 't1' }, { definitionIds: [id], withDefinitions: true });
  assert.deepEqual(loaded.values, {});
  assert.deepEqual(loaded.invalid.map(({ slug, errors }) => ({ slug, errors })), [{ slug: 'prefs', errors: [{ path: '/age', message: 'is not an allowed property' }] }]);
  assert.deepEqual(loaded.definitions.get(id)?.schema, onlyName);
  assert.equal(warnings.length, 1);
});
