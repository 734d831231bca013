import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { MemoryRecordStore } from '../../../host/memory/records/memory-record-store.ts';
import { updateMemoryAction } from '../../../host/workflows/actions/update-memory.action.ts';
import type { TaskDef } from '../../../host/workflows/document/workflow-document.ts';
import { openRunMemory } from '../../../host/workflows/memory/run-memory.ts';
import type { ActionServices, RunState } from '../../../host/workflows/runtime/action.ts';
import { createTestDatabase, type TestDatabase } from '../../support/test-database.ts';
import { OWNER, buildDocument, buildRun, createRecordStore, insertMemoryDefinition, storedValues } from './run-memory-fixture.ts';

let database: TestDatabase;
let records: MemoryRecordStore;
const ids: Record<string, string> = {};

const PROFILE_PROPERTIES = {
  name: { type: 'string', description: 'What the subscriber is called' },
  city: { type: 'string', description: 'Where they live' },
  age: { type: 'integer', description: 'Age in years' },
};

before(async () => {
  database = await createTestDatabase();
  records = createRecordStore(database.db);
  ids.profile = await insertMemoryDefinition(database.db, { name: 'Profile', slug: 'profile', properties: PROFILE_PROPERTIES });
  ids.topic = await insertMemoryDefinition(database.db, { name: 'Topic', slug: 'topic', scope: 'thread' });
  ids.secret = await insertMemoryDefinition(database.db, { name: 'Secret', slug: 'secret', scope: 'workflow' });
});
after(() => database.close());

const task: TaskDef = { kind: 'task', action: 'update_memory', inputs: {} };

async function runAction(run: RunState, memoryInput: unknown): Promise<unknown> {
  const memory = await openRunMemory(run, { db: database.db, records });
  const services = { memory } as unknown as ActionServices;
  return updateMemoryAction.run({ taskName: 'save', task, inputs: { memory: memoryInput }, run }, services);
}

const runFor = (ownerId: string) => buildRun(buildDocument({ memory: { topic: ids.topic! } }), { ownerId });

test('update_memory replaces whole values, outputs the slugs written and refreshes $context.memory', async () => {
  const run = runFor('replace');
  assert.deepEqual(await runAction(run, { profile: { name: 'Ada', city: 'London' }, topic: { text: 'shipping' } }), { slugs: ['profile', 'topic'] });
  assert.deepEqual(await runAction(run, { profile: { name: 'Ada Lovelace' } }), { slugs: ['profile'] });
  // No merge: the city given the first time is gone.
  assert.deepEqual(await storedValues(database.db, 'replace', 'profile'), [{ name: 'Ada Lovelace' }]);
  assert.deepEqual(run.context.memory, { profile: { name: 'Ada Lovelace' }, topic: { text: 'shipping' } });
});

test('an unknown slug rejects the whole write: nothing is written', async () => {
  const run = runFor('unknown');
  await assert.rejects(runAction(run, { profile: { name: 'Grace' }, nope: { x: 1 } }), {
    code: 'BOT_ERR_MEMORY_SLUG_UNKNOWN',
    message: 'Unknown memory slug "nope"',
  });
  assert.deepEqual(await database.db('memory_records').where({ owner_id: 'unknown' }), []);
  assert.deepEqual(run.context.memory, {});
});

test('a value that breaks its schema rejects the whole write: nothing is written', async () => {
  const run = runFor('invalid');
  await assert.rejects(runAction(run, { topic: { text: 'ok' }, profile: { name: 'Grace', age: 'old' } }), {
    code: 'BOT_ERR_MEMORY_VALUE_INVALID',
    message: /"profile" does not match its schema: \/age must be integer/,
  });
  await assert.rejects(runAction(run, { topic: { text: 'ok' }, profile: { name: 'Grace', extra: true } }), { code: 'BOT_ERR_MEMORY_VALUE_INVALID' });
  assert.deepEqual(await database.db('memory_records').where({ owner_id: 'invalid' }), []);
});

test('slug names are checked first, before any lookup', async () => {
  const run = runFor('names');
  // "Bad-Slug" is also unknown; the name check must answer before the store is asked.
  await assert.rejects(runAction(run, { profile: { name: 'Grace' }, 'Bad-Slug': {} }), { code: 'BOT_ERR_MEMORY_SLUG_INVALID' });
  assert.deepEqual(await database.db('memory_records').where({ owner_id: 'names' }), []);
});

test('workflow, thread or run memory the workflow does not declare cannot be written', async () => {
  const run = runFor('undeclared');
  await assert.rejects(runAction(run, { profile: { name: 'Grace' }, secret: { text: 'x' } }), {
    code: 'BOT_ERR_WORKFLOW_MEMORY_NOT_BOUND',
    message: 'The workflow declares no `kind: memory` def for "secret" (workflow): nothing was written',
  });
  assert.deepEqual(await database.db('memory_records').where({ owner_id: 'undeclared' }), []);
});

test('a memory input that is not an object is refused', async () => {
  await assert.rejects(runAction(runFor(OWNER), ['profile']), {
    code: 'BOT_ERR_WORKFLOW_INPUT_INVALID',
    message: 'update_memory: memory must be an object of slugs to values, not an array',
  });
});
