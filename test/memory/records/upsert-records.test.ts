import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { WriteRow } from '../../../host/memory/records/memory-write-rows.ts';
import { upsertRecordsIfCurrent, type DefinitionVersion } from '../../../host/memory/records/upsert-if-current.ts';
import { createTestDatabase, type TestDatabase } from '../../support/test-database.ts';
import { insertDefinition } from './insert-definition.ts';
import { untilUpsertWaitsForLock } from './until-upsert-waits-for-lock.ts';

let database: TestDatabase;
const now = new Date('2030-01-01T00:00:00.000Z');

before(async () => {
  database = await createTestDatabase();
});
after(() => database.close());

async function versionOf(id: string): Promise<DefinitionVersion> {
  const [row] = await database.db('memory_definitions').where({ id }).select('id', database.db.raw('updated_at::text AS version'));
  return row as DefinitionVersion;
}

function rowFor(definitionId: string, ownerId: string, value: unknown): WriteRow {
  return { definition_id: definitionId, owner_id: ownerId, workflow_id: null, thread_id: null, run_id: null, scope_key: '', value, expires_at: null };
}

async function valuesOf(ownerId: string): Promise<unknown[]> {
  const rows: { value: unknown }[] = await database.db('memory_records').where({ owner_id: ownerId }).orderBy('value').select('value');
  return rows.map((row) => row.value);
}

test('rows are written when every definition is at the given version, keeping microseconds', async () => {
  const id = await insertDefinition(database.db, { slug: 'current' });
  // A version with microseconds, which a JS Date would drop (now() has them; fixed here so the
  // printed form cannot lose trailing zeros).
  await database.db('memory_definitions').where({ id }).update({ updated_at: '2026-11-22 10:00:00.123457+00' });
  const version = await versionOf(id);
  assert.match(version.version, /\.123457\+00$/);

  const written = await upsertRecordsIfCurrent(database.db, { rows: [rowFor(id, 'a', { age: 1 })], versions: [version], now });

  assert.equal(written.length, 1);
  assert.deepEqual(await valuesOf('a'), [{ age: 1 }]);
});

test('one stale definition among several writes none of the rows', async () => {
  const first = await insertDefinition(database.db, { slug: 'first' });
  const second = await insertDefinition(database.db, { slug: 'second' });
  const versions = [await versionOf(first), await versionOf(second)];
  await database.db('memory_definitions').where({ id: second }).update({ updated_at: database.db.raw(`updated_at + interval '1 millisecond'`) });

  const rows = [rowFor(first, 'b', { age: 1 }), rowFor(second, 'b', { age: 2 })];
  assert.deepEqual(await upsertRecordsIfCurrent(database.db, { rows, versions, now }), []);
  assert.deepEqual(await valuesOf('b'), []);
});

/**
 * The reasoning the fast path rests on: in READ COMMITTED, `FOR SHARE` that waited on a
 * concurrent update re-checks the updated row, whose new version no longer matches.
 */
for (const change of ['updated', 'deleted'] as const) {
  test(`a definition ${change} while the upsert waits for its lock stops the whole upsert`, async () => {
    const id = await insertDefinition(database.db, { slug: `contested_${change}` });
    const other = await insertDefinition(database.db, { slug: `bystander_${change}` });
    const versions = [await versionOf(id), await versionOf(other)];
    const owner = `waiting-${change}`;
    const trx = await database.db.transaction();
    await trx('memory_definitions').where({ id }).forUpdate().first();
    if (change === 'updated') await trx('memory_definitions').where({ id }).update({ updated_at: trx.raw(`updated_at + interval '1 millisecond'`) });
    else await trx('memory_definitions').where({ id }).delete();

    const rows = [rowFor(id, owner, { age: 1 }), rowFor(other, owner, { age: 2 })];
    const outcome = upsertRecordsIfCurrent(database.db, { rows, versions, now }).then((written) => written, (error: unknown) => error);
    try {
      await untilUpsertWaitsForLock(database.db);
    } finally {
      await trx.commit();
    }

    assert.deepEqual(await outcome, []);
    assert.deepEqual(await valuesOf(owner), []);
  });
}
