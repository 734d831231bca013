import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import pino from 'pino';
import { MemoryRecordStore } from '../../../host/memory/records/memory-record-store.ts';
import { TestClock } from '../../support/test-clock.ts';
import { createTestDatabase, type TestDatabase } from '../../support/test-database.ts';
import { insertDefinition } from './insert-definition.ts';

const HOUR_MS = 3_600_000;

let database: TestDatabase;
let store: MemoryRecordStore;
let clock: TestClock;
let runDefinitionId: string;

before(async () => {
  database = await createTestDatabase();
  clock = new TestClock('2030-01-01T00:00:00.000Z');
  store = new MemoryRecordStore(database.db, { now: clock.now, logger: pino({ level: 'silent' }) });
  await insertDefinition(database.db, { slug: 'hourly', ttlSeconds: 3600 });
  await insertDefinition(database.db, { slug: 'forever' });
  runDefinitionId = await insertDefinition(database.db, { slug: 'scratch', scope: 'run' });
});
after(() => database.close());

test('a write sets the expiry to now + TTL, and null for a permanent definition', async () => {
  const records = await store.write({ ownerId: 'a' }, { hourly: { age: 1 }, forever: { age: 1 } });
  const bySlug = new Map(records.map((record) => [record.slug, record]));

  assert.equal(bySlug.get('hourly')?.expiresAt, new Date(clock.now().getTime() + HOUR_MS).toISOString());
  assert.equal(bySlug.get('forever')?.expiresAt, null);
});

test('every update refreshes the expiry and the update time but keeps the creation time', async () => {
  const [created] = await store.write({ ownerId: 'b' }, { hourly: { age: 1 } });
  clock.advance(30 * 60_000);
  const [updated] = await store.write({ ownerId: 'b' }, { hourly: { age: 2 } });

  assert.equal(updated?.id, created?.id);
  assert.equal(updated?.createdAt, created?.createdAt);
  assert.equal(updated?.updatedAt, clock.now().toISOString());
  assert.equal(updated?.expiresAt, new Date(clock.now().getTime() + HOUR_MS).toISOString());
});

test('an expired record is not returned by load, list or get, and cannot be deleted by id', async () => {
  const written = await store.write({ ownerId: 'c' }, { hourly: { age: 1 }, forever: { age: 1 } });
  const record = written.find((item) => item.slug === 'hourly');
  clock.advance(HOUR_MS);

  assert.deepEqual((await store.load({ ownerId: 'c' })).values, { forever: { age: 1 } });
  const page = await store.list({ ownerId: 'c', limit: 10, offset: 0 });
  assert.deepEqual(page.items.map((item) => item.slug), ['forever']);
  assert.equal(page.total, 1);
  await assert.rejects(store.get(record!.id), { code: 'BOT_ERR_MEMORY_RECORD_NOT_FOUND' });
  await assert.rejects(store.delete(record!.id), { code: 'BOT_ERR_MEMORY_RECORD_NOT_FOUND' });
});

test('a record one millisecond before its expiry is still returned', async () => {
  await store.write({ ownerId: 'd' }, { hourly: { age: 1 } });
  clock.advance(HOUR_MS - 1);

  assert.deepEqual((await store.load({ ownerId: 'd' })).values, { hourly: { age: 1 } });
});

test('writing an expired, not yet swept record starts a new record', async () => {
  const [old] = await store.write({ ownerId: 'e' }, { hourly: { name: 'old', age: 1 } });
  clock.advance(2 * HOUR_MS);
  const [fresh] = await store.write({ ownerId: 'e' }, { hourly: { name: 'new' } });

  assert.notEqual(fresh?.id, old?.id);
  assert.equal(fresh?.createdAt, clock.now().toISOString());
  assert.deepEqual((await store.get(fresh!.id)).value, { name: 'new' });
});

test('get and delete answer a live record, then 404 once it is deleted', async () => {
  const [record] = await store.write({ ownerId: 'f' }, { forever: { name: 'x' } });

  assert.equal((await store.get(record!.id)).slug, 'forever');
  await store.delete(record!.id);
  await assert.rejects(store.get(record!.id), { code: 'BOT_ERR_MEMORY_RECORD_NOT_FOUND' });
});

test("endRun removes that run's run-scope records only", async () => {
  await store.write({ ownerId: 'g', runId: 'run-1' }, { scratch: { age: 1 }, forever: { age: 1 } });
  await store.write({ ownerId: 'h', runId: 'run-1' }, { scratch: { age: 2 } });
  await store.write({ ownerId: 'g', runId: 'run-2' }, { scratch: { age: 3 } });

  assert.equal(await store.endRun('run-1'), 2);

  const definitionIds = [runDefinitionId];
  assert.deepEqual((await store.load({ ownerId: 'g', runId: 'run-1' }, { definitionIds })).values, { forever: { age: 1 } });
  assert.deepEqual((await store.load({ ownerId: 'g', runId: 'run-2' }, { definitionIds })).values, {
    forever: { age: 1 },
    scratch: { age: 3 },
  });
});
