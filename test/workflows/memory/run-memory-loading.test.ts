import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, test } from 'node:test';
import type { MemoryRecordStore } from '../../../host/memory/records/memory-record-store.ts';
import { openRunMemory } from '../../../host/workflows/memory/run-memory.ts';
import { createTestDatabase, type TestDatabase } from '../../support/test-database.ts';
import { countStatements } from './count-statements.ts';
import { OWNER, THREAD, WORKFLOW, buildDocument, buildRun, createRecordStore, insertMemoryDefinition } from './run-memory-fixture.ts';

let database: TestDatabase;
let records: MemoryRecordStore;
const ids: Record<string, string> = {};
const runId = randomUUID();

before(async () => {
  database = await createTestDatabase();
  records = createRecordStore(database.db);
  for (const scope of ['global', 'workflow', 'thread', 'run'] as const) {
    ids[scope] = await insertMemoryDefinition(database.db, { name: `A ${scope} note`, slug: `${scope}_note`, scope });
  }
  const here = { ownerId: OWNER, workflowId: WORKFLOW, threadId: THREAD, runId };
  await records.write(here, { global_note: { text: 'g' }, workflow_note: { text: 'w' }, thread_note: { text: 't' }, run_note: { text: 'r' } });
  // The same owner elsewhere, and another owner here: neither may leak into the run.
  await records.write({ ownerId: OWNER, workflowId: 'workflow-2', threadId: 'thread-2', runId: randomUUID() }, {
    workflow_note: { text: 'other workflow' },
    thread_note: { text: 'other thread' },
  });
  await records.write({ ...here, ownerId: 'subscriber-2' }, { global_note: { text: 'other owner' } });
});
after(() => database.close());

const dependencies = () => ({ db: database.db, records });

test('global memory is loaded without any memory def or binding', async () => {
  const run = buildRun(buildDocument(), { runId });
  await openRunMemory(run, dependencies());
  assert.deepEqual(run.context.memory, { global_note: { text: 'g' } });
});

test('workflow, thread and run memory are loaded only when a kind: memory def declares them', async () => {
  const declared = buildRun(buildDocument({ memory: { prefs: ids.workflow!, topic: ids.thread!, scratch: ids.run! } }), { runId });
  await openRunMemory(declared, dependencies());
  assert.deepEqual(declared.context.memory, {
    global_note: { text: 'g' },
    workflow_note: { text: 'w' },
    thread_note: { text: 't' },
    run_note: { text: 'r' },
  });

  const threadOnly = buildRun(buildDocument({ memory: { topic: ids.thread! } }), { runId });
  await openRunMemory(threadOnly, dependencies());
  assert.deepEqual(threadOnly.context.memory, { global_note: { text: 'g' }, thread_note: { text: 't' } });
});

test('a run without a thread loads no thread memory, and a missing record is a missing key', async () => {
  const run = buildRun(buildDocument({ memory: { topic: ids.thread!, scratch: ids.run! } }), { threadId: undefined });
  await openRunMemory(run, dependencies());
  assert.deepEqual(run.context.memory, { global_note: { text: 'g' } });
  assert.equal(Object.hasOwn(run.context.memory, 'run_note'), false);
});

test('a memory def whose definition was deleted fails the run before its first step', async () => {
  const gone = randomUUID();
  const run = buildRun(buildDocument({ memory: { prefs: gone } }));
  await assert.rejects(openRunMemory(run, dependencies()), {
    code: 'BOT_ERR_WORKFLOW_MEMORY_DEFINITION_UNKNOWN',
    message: `The memory def "prefs" binds the definition "${gone}", which no longer exists`,
  });
});

test('a memory binding that names no kind: memory def is refused', async () => {
  const run = buildRun(buildDocument({ tasks: { ask: { action: 'ai_generate_text', inputs: { prompt: 'x' }, bindings: { memory: ['nope'] } } } }));
  await assert.rejects(openRunMemory(run, dependencies()), { code: 'BOT_ERR_WORKFLOW_MEMORY_UNKNOWN', message: /"nope" of task "ask"/ });
});

test('opening a run’s memory is one statement: definitions and records together, with memory defs or without', async () => {
  const declared = buildRun(buildDocument({ memory: { prefs: ids.workflow!, topic: ids.thread!, scratch: ids.run! }, bound: ['prefs'] }), { runId });
  const opened = await countStatements(() => openRunMemory(declared, dependencies()));
  assert.equal(opened.count, 1);
  assert.equal(opened.result.status, 'fulfilled');
  assert.equal(Object.keys(declared.context.memory).length, 4);

  const plain = buildRun(buildDocument(), { runId });
  assert.equal((await countStatements(() => openRunMemory(plain, dependencies()))).count, 1);
  assert.deepEqual(plain.context.memory, { global_note: { text: 'g' } });
});

test('a deleted definition fails the run after that one statement, and leaves its memory unset', async () => {
  const run = buildRun(buildDocument({ memory: { prefs: ids.workflow!, gone: randomUUID() } }), { runId });
  const { count, result } = await countStatements(() => openRunMemory(run, dependencies()));
  assert.equal(count, 1);
  assert.equal(result.status === 'rejected' && (result.reason as { code?: string }).code, 'BOT_ERR_WORKFLOW_MEMORY_DEFINITION_UNKNOWN');
  assert.deepEqual(run.context.memory, {});
});

test('a definition id that is no UUID is left out of the statement: its def fails to bind, not the query', async () => {
  const run = buildRun(buildDocument({ memory: { prefs: 'not-a-uuid' } }));
  await assert.rejects(openRunMemory(run, dependencies()), {
    code: 'BOT_ERR_WORKFLOW_MEMORY_DEFINITION_UNKNOWN',
    message: 'The memory def "prefs" binds the definition "not-a-uuid", which no longer exists',
  });
});

test('each def is bound to its definition as stored, its schema parsed', async () => {
  const run = buildRun(buildDocument({ memory: { prefs: ids.workflow!, again: ids.workflow! }, bound: ['prefs', 'again'] }), { runId });
  const memory = await openRunMemory(run, dependencies());
  const schema = { type: 'object', properties: { text: { type: 'string', description: 'A note' } }, additionalProperties: false };
  assert.deepEqual(memory.boundDefinitions({ kind: 'task', action: 'ai_generate_text', inputs: {} }), [
    { id: ids.workflow, name: 'A workflow note', slug: 'workflow_note', scope: 'workflow', schema },
  ]);
});
