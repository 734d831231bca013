import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { MemoryRecordStore } from '../../../host/memory/records/memory-record-store.ts';
import { endRunMemory } from '../../../host/workflows/memory/end-run-memory.ts';
import { openRunMemory } from '../../../host/workflows/memory/run-memory.ts';
import { createTestDatabase, type TestDatabase } from '../../support/test-database.ts';
import { OWNER, buildDocument, buildRun, createRecordStore, insertMemoryDefinition } from './run-memory-fixture.ts';

let database: TestDatabase;
let records: MemoryRecordStore;
const ids: Record<string, string> = {};

before(async () => {
  database = await createTestDatabase();
  records = createRecordStore(database.db);
  ids.scratch = await insertMemoryDefinition(database.db, { name: 'Scratch', slug: 'scratch', scope: 'run' });
  ids.topic = await insertMemoryDefinition(database.db, { name: 'Topic', slug: 'topic', scope: 'thread' });
});
after(() => database.close());

const slugsOf = async (ownerId: string) =>
  (await database.db('memory_records as r').join('memory_definitions as d', 'd.id', 'r.definition_id').where('r.owner_id', ownerId).orderBy('d.slug').select('d.slug')).map(
    ({ slug }: { slug: string }) => slug,
  );

test("ending a run removes its run-scope memory and keeps everything else, other runs' included", async () => {
  const document = buildDocument({ memory: { scratch: ids.scratch!, topic: ids.topic! } });
  const run = buildRun(document);
  const otherRun = buildRun(document);
  const memory = await openRunMemory(run, { db: database.db, records });
  await memory.update({ scratch: { text: 'temporary' }, topic: { text: 'kept' } });
  await (await openRunMemory(otherRun, { db: database.db, records })).update({ scratch: { text: 'other run' } });

  await memory.end();
  assert.deepEqual(await slugsOf(OWNER), ['scratch', 'topic']);
  const remaining = await database.db('memory_records').whereNotNull('run_id').select('run_id');
  assert.deepEqual(remaining, [{ run_id: otherRun.runId }]);
});

test('the run id alone is enough, so a run that failed before opening its memory is cleaned too', async () => {
  const run = buildRun(buildDocument({ memory: { scratch: ids.scratch! } }), { ownerId: 'early-failure' });
  await (await openRunMemory(run, { db: database.db, records })).update({ scratch: { text: 'temporary' } });
  assert.equal(await endRunMemory(records, run.runId), 1);
  assert.deepEqual(await slugsOf('early-failure'), []);
});
