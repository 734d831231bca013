import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { asSchema, type Tool } from 'ai';
import type { MemoryRecordStore } from '../../../host/memory/records/memory-record-store.ts';
import type { TaskDef } from '../../../host/workflows/document/workflow-document.ts';
import { openRunMemory, type RunMemoryDependencies } from '../../../host/workflows/memory/run-memory.ts';
import { createTestDatabase, type TestDatabase } from '../../support/test-database.ts';
import { buildDocument, buildRun, createRecordStore, insertMemoryDefinition, storedValues } from './run-memory-fixture.ts';

let database: TestDatabase;
let records: MemoryRecordStore;
const ids: Record<string, string> = {};

const PROFILE_SCHEMA = {
  type: 'object',
  properties: { name: { type: 'string', description: 'What the subscriber is called' }, age: { type: 'integer', description: 'Age in years' } },
  additionalProperties: false,
};

before(async () => {
  database = await createTestDatabase();
  records = createRecordStore(database.db);
  ids.profile = await insertMemoryDefinition(database.db, { name: 'Profile', slug: 'profile', properties: PROFILE_SCHEMA.properties });
  ids.topic = await insertMemoryDefinition(database.db, { name: 'Topic', slug: 'topic', scope: 'thread' });
});
after(() => database.close());

const aiTask = (memory?: string[]): TaskDef => ({ kind: 'task', action: 'ai_agent', inputs: { prompt: 'x' }, ...(memory && { bindings: { memory } }) });

async function openFor(ownerId: string, bound?: string[], dependencies: Partial<RunMemoryDependencies> = {}) {
  const run = buildRun(buildDocument({ memory: { profile: ids.profile!, topic: ids.topic! }, bound }), { ownerId });
  return { run, memory: await openRunMemory(run, { db: database.db, records, ...dependencies }) };
}

async function call(tool: Tool, input: unknown): Promise<unknown> {
  return tool.execute!(input, { toolCallId: 'call-1', messages: [], context: {} });
}

test('the update_memory tool is absent without memory bindings', async () => {
  const { memory } = await openFor('absent');
  assert.equal(memory.updateTool(aiTask()), undefined);
  assert.equal((await openFor('absent', ['profile'])).memory.updateTool(aiTask([])), undefined);
});

test('the tool input lists only the bound slugs, each with its definition schema, at least one, nothing else', async () => {
  const { memory } = await openFor('schema', ['profile', 'topic']);
  const tool = memory.updateTool(aiTask(['profile']))!;
  assert.deepEqual(await asSchema(tool.inputSchema).jsonSchema, {
    type: 'object',
    properties: {
      memory: {
        type: 'object',
        description: 'Complete new values by memory slug',
        properties: { profile: { ...PROFILE_SCHEMA, description: 'Profile' } },
        minProperties: 1,
        additionalProperties: false,
      },
    },
    required: ['memory'],
    additionalProperties: false,
  });
  const workflowWide = memory.updateTool(aiTask())!;
  const offered = (await asSchema(workflowWide.inputSchema).jsonSchema) as { properties: { memory: { properties: object } } };
  assert.deepEqual(Object.keys(offered.properties.memory.properties), ['profile', 'topic']);
});

test('the tool writes the complete values and tells the model what it saved', async () => {
  const { run, memory } = await openFor('saves', ['profile']);
  const tool = memory.updateTool(aiTask())!;
  assert.deepEqual(await call(tool, { memory: { profile: { name: 'Ada', age: 36 } } }), { saved: ['profile'] });
  assert.deepEqual(await call(tool, { memory: { profile: { name: 'Ada' } } }), { saved: ['profile'] });
  assert.deepEqual(await storedValues(database.db, 'saves', 'profile'), [{ name: 'Ada' }]);
  assert.deepEqual(run.context.memory, { profile: { name: 'Ada' } });
});

test('a rejected write comes back to the model as an error it can correct, and nothing is written', async () => {
  const { memory } = await openFor('rejected', ['profile']);
  const tool = memory.updateTool(aiTask())!;
  assert.deepEqual(await call(tool, { memory: { profile: { name: 'Ada' }, topic: { text: 'x' } } }), {
    error: 'Nothing was saved: update_memory names "topic"; it can save: profile',
  });
  assert.deepEqual(await call(tool, { memory: {} }), { error: 'Nothing was saved: update_memory names no slug; it can save: profile' });
  assert.deepEqual(await call(tool, { memory: { profile: { name: 'Ada', age: 'old' } } }), {
    error: 'Nothing was saved: Memory value for "profile" does not match its schema: /age must be integer',
  });
  assert.deepEqual(await database.db('memory_records').where({ owner_id: 'rejected' }), []);
});

test('a failure that is not the model’s fault is thrown, failing the step', async () => {
  const broken = { load: records.load.bind(records), endRun: records.endRun.bind(records), write: () => Promise.reject(new Error('connection lost')) };
  const { memory } = await openFor('broken', ['profile'], { records: broken });
  await assert.rejects(call(memory.updateTool(aiTask())!, { memory: { profile: { name: 'Ada' } } }), /connection lost/);
});
