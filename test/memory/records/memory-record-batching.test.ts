import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import pino from 'pino';
import { MemoryDefinitionStore } from '../../../host/memory/definitions/memory-definition-store.ts';
import { MemoryRecordStore, type MemoryLoadResult, type MemoryLoadWithDefinitions } from '../../../host/memory/records/memory-record-store.ts';
import type { WriteRow } from '../../../host/memory/records/memory-write-rows.ts';
import { CurrentVersionUpserts, type DefinitionVersion } from '../../../host/memory/records/upsert-if-current.ts';
import { TestClock } from '../../support/test-clock.ts';
import { createTestDatabase, type TestDatabase } from '../../support/test-database.ts';
import { insertDefinition } from './insert-definition.ts';
import { statementsDuring as statementsDuringOn } from '../../support/statements-during.ts';

let database: TestDatabase;
let store: MemoryRecordStore;
const clock = new TestClock();
const ONLY_NAME = { type: 'object', properties: { name: { type: 'string', description: 'Name' } }, additionalProperties: false };
let profileId: string;
let topicId: string;

before(async () => {
  database = await createTestDatabase();
  store = new MemoryRecordStore(database.db, { now: clock.now, logger: pino({ level: 'silent' }) });
  profileId = await insertDefinition(database.db, { slug: 'profile' });
  topicId = await insertDefinition(database.db, { slug: 'topic', scope: 'thread' });
});
after(() => database.close());

const statementsDuring = (action: () => Promise<unknown>) => statementsDuringOn(database.db, action);

/** Statements of the optimistic upsert, the one concurrent writes share. */
const isOptimisticUpsert = (sql: string) => sql.includes('upsert_current');

async function storedValue(ownerId: string, slug: string): Promise<unknown> {
  return (await store.load({ ownerId })).values[slug];
}

test('loads made together for different owners and threads are one statement, each with exactly its own memory', async () => {
  await store.write({ ownerId: 'ada', threadId: 'ada-1' }, { profile: { name: 'Ada' }, topic: { name: 'ada first thread' } });
  await store.write({ ownerId: 'ada', threadId: 'ada-2' }, { topic: { name: 'ada second thread' } });
  await store.write({ ownerId: 'bob', threadId: 'bob-1' }, { profile: { name: 'Bob' }, topic: { name: 'bob thread' } });

  let loads: (MemoryLoadResult | MemoryLoadWithDefinitions)[] = [];
  const statements = await statementsDuring(async () => {
    loads = await Promise.all([
      store.load({ ownerId: 'ada', threadId: 'ada-1' }, { definitionIds: [topicId], withDefinitions: true }),
      store.load({ ownerId: 'ada', threadId: 'ada-2' }, { definitionIds: [topicId] }),
      store.load({ ownerId: 'bob', threadId: 'bob-1' }, { definitionIds: [] }),
      store.load({ ownerId: 'bob', threadId: 'ada-1' }, { definitionIds: [topicId], withDefinitions: true }),
      store.load({ ownerId: 'nobody', threadId: 'bob-1' }, { definitionIds: [topicId] }),
    ]);
  });

  assert.equal(statements.length, 1, statements.join(' | '));
  assert.deepEqual(loads.map((loaded) => loaded.values), [
    { profile: { name: 'Ada' }, topic: { name: 'ada first thread' } },
    { profile: { name: 'Ada' }, topic: { name: 'ada second thread' } },
    // Bob's thread memory is not asked for, and another owner's thread is not Bob's.
    { profile: { name: 'Bob' } },
    { profile: { name: 'Bob' } },
    {},
  ]);
  const definitions = loads.map((loaded) => ('definitions' in loaded ? [...loaded.definitions.keys()] : undefined));
  assert.deepEqual(definitions, [[topicId], undefined, undefined, [topicId], undefined]);
});

test('writes of different owners made together share one statement; one whose definition changed underneath writes nothing', async () => {
  const upserts = new CurrentVersionUpserts(database.db);
  const current = await versionOf(profileId);
  const stale: DefinitionVersion = { id: profileId, version: '2000-01-01 00:00:00+00' };
  const call = (ownerId: string, version: DefinitionVersion) => ({ rows: [rowFor(profileId, ownerId, { name: ownerId })], versions: [version], now: clock.now() });

  let results: unknown[][] = [];
  const statements = await statementsDuring(async () => {
    results = await Promise.all([upserts.submit(call('cat', current)), upserts.submit(call('dan', stale)), upserts.submit(call('eve', current))]);
  });

  assert.equal(statements.length, 1, statements.join(' | '));
  assert.deepEqual(results.map((rows) => rows.map((row) => (row as { owner_id: string }).owner_id)), [['cat'], [], ['eve']]);
  assert.deepEqual(await storedValue('cat', 'profile'), { name: 'cat' });
  assert.equal(await storedValue('dan', 'profile'), undefined);
  assert.deepEqual(await storedValue('eve', 'profile'), { name: 'eve' });
});

test('through the store, the write whose definition changed is checked again against the new schema while the others commit', async () => {
  const moodId = await insertDefinition(database.db, { slug: 'mood' });
  // Cache both definitions, then narrow one behind the store's back, as another host would.
  await store.write({ ownerId: 'warm' }, { profile: { name: 'warm' }, mood: { age: 1 } });
  await database.db('memory_definitions').where({ id: moodId }).update({ schema: ONLY_NAME, updated_at: database.db.raw(`updated_at + interval '1 millisecond'`) });

  let outcomes: PromiseSettledResult<unknown>[] = [];
  const statements = await statementsDuring(async () => {
    outcomes = await Promise.allSettled([
      store.write({ ownerId: 'fay' }, { profile: { name: 'Fay' } }),
      store.write({ ownerId: 'gus' }, { mood: { age: 3 } }),
      store.write({ ownerId: 'hal' }, { profile: { name: 'Hal' } }),
    ]);
  });

  assert.equal(statements.filter(isOptimisticUpsert).length, 1, statements.join(' | '));
  assert.deepEqual(outcomes.map((outcome) => outcome.status), ['fulfilled', 'rejected', 'fulfilled']);
  assert.equal(((outcomes[1] as PromiseRejectedResult).reason as { code: string }).code, 'BOT_ERR_MEMORY_VALUE_INVALID');
  assert.deepEqual(await storedValue('fay', 'profile'), { name: 'Fay' });
  assert.deepEqual(await database.db('memory_records').where({ owner_id: 'gus' }), []);
  assert.deepEqual(await storedValue('hal', 'profile'), { name: 'Hal' });
});

test('two writes of one owner made together both land, in order: the later value wins', async () => {
  await store.write({ ownerId: 'warm' }, { profile: { name: 'warm again' } });

  let written: { value: unknown }[][] = [];
  const statements = await statementsDuring(async () => {
    written = await Promise.all([
      store.write({ ownerId: 'ivy' }, { profile: { name: 'first' } }),
      store.write({ ownerId: 'jon' }, { profile: { name: 'other owner' } }),
      store.write({ ownerId: 'ivy' }, { profile: { name: 'second' } }),
    ]);
  });

  // Ivy's first write shares Jon's statement; her second waits for the next one.
  assert.equal(statements.filter(isOptimisticUpsert).length, 2, statements.join(' | '));
  assert.deepEqual(written.map(([record]) => record?.value), [{ name: 'first' }, { name: 'other owner' }, { name: 'second' }]);
  assert.deepEqual(await storedValue('ivy', 'profile'), { name: 'second' });
});

test('a load re-checks only values written before their definition last changed', async () => {
  const noteId = await insertDefinition(database.db, { slug: 'note', properties: ONLY_NAME.properties });
  await database.db('memory_definitions').where({ id: noteId }).update({ updated_at: '2026-06-01T00:00:00Z' });
  // Stored behind the host's back, so neither was checked: only the timestamps differ.
  const bad = { name: 'Kim', age: 40 };
  await database.db('memory_records').insert([
    { definition_id: noteId, owner_id: 'kim-before', scope_key: '', value: bad, updated_at: '2026-05-31T23:59:59Z' },
    { definition_id: noteId, owner_id: 'kim-same-time', scope_key: '', value: bad, updated_at: '2026-06-01T00:00:00Z' },
    { definition_id: noteId, owner_id: 'kim-after', scope_key: '', value: bad, updated_at: '2026-06-01T00:00:01Z' },
  ]);

  const writtenBefore = await store.load({ ownerId: 'kim-before' });
  const writtenSameTime = await store.load({ ownerId: 'kim-same-time' });
  const writtenAfter = await store.load({ ownerId: 'kim-after' });

  assert.deepEqual([writtenBefore.values, writtenBefore.invalid.map(({ slug }) => slug)], [{}, ['note']]);
  assert.deepEqual([writtenSameTime.values, writtenSameTime.invalid.map(({ slug }) => slug)], [{}, ['note']]);
  // A host write after the change would have been checked against this very schema: trusted.
  assert.deepEqual([writtenAfter.values, writtenAfter.invalid], [{ note: bad }, []]);
});

async function versionOf(id: string): Promise<DefinitionVersion> {
  const [row] = await database.db('memory_definitions').where({ id }).select('id', database.db.raw('updated_at::text AS version'));
  return row as DefinitionVersion;
}

function rowFor(definitionId: string, ownerId: string, value: unknown): WriteRow {
  return { definition_id: definitionId, owner_id: ownerId, workflow_id: null, thread_id: null, run_id: null, scope_key: '', value, expires_at: null };
}

test('a schema change made just after a write by an instance whose clock runs ahead still has the record checked again', async () => {
  const logger = pino({ level: 'silent' });
  // The writing instance's clock is 5 s ahead of the one changing the definition.
  const writer = new MemoryRecordStore(database.db, { now: () => new Date(Date.now() + 5_000), logger });
  const definitions = new MemoryDefinitionStore(database.db, { now: () => new Date() });
  const reader = new MemoryRecordStore(database.db, { now: () => new Date(), logger });
  const id = await insertDefinition(database.db, { slug: 'skewed' });
  await writer.write({ ownerId: 'skew-owner' }, { skewed: { name: 'Ada', age: 36 } });
  await definitions.update(id, { schema: { type: 'object', properties: { name: { type: 'string', description: 'Name' } }, additionalProperties: false } } as never);
  // Without the change moved past the record's time, the record would look newer and be trusted.
  const loaded = await reader.load({ ownerId: 'skew-owner' });
  assert.deepEqual(Object.keys(loaded.values), []);
  assert.deepEqual(loaded.invalid.map((entry) => entry.slug), ['skewed']);
});
