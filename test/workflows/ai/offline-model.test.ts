import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import nock from 'nock';
import type { MemoryRecordStore } from '../../../host/memory/records/memory-record-store.ts';
import { aiAgentAction } from '../../../host/workflows/actions/ai-agent.action.ts';
import { aiGenerateObjectAction } from '../../../host/workflows/actions/ai-generate-object.action.ts';
import { aiGenerateReplyAction } from '../../../host/workflows/actions/ai-generate-reply.action.ts';
import { aiInferObjectAction } from '../../../host/workflows/actions/ai-infer-object.action.ts';
import type { WorkflowDocument } from '../../../host/workflows/document/workflow-document.ts';
import { openRunMemory } from '../../../host/workflows/memory/run-memory.ts';
import { createTestDatabase, type TestDatabase } from '../../support/test-database.ts';
import { createRecordStore, insertMemoryDefinition, storedValues } from '../memory/run-memory-fixture.ts';
import { documentWith, FixedHistory, invocationOf, OFFLINE_MODEL, RecordingOutbox, runOf, services, testModels } from './ai-fixtures.ts';

let database: TestDatabase;
let records: MemoryRecordStore;
let document: WorkflowDocument;

// No network at all: the offline model must not need one (no base URL is configured either).
const models = testModels({ BOT_AI_BASE_URL: undefined, BOT_AI_API_KEY: undefined });

before(async () => {
  nock.disableNetConnect();
  database = await createTestDatabase();
  records = createRecordStore(database.db);
  const profileId = await insertMemoryDefinition(database.db, {
    name: 'Profile',
    slug: 'profile',
    properties: { name: { type: 'string', title: 'Name', description: 'What the subscriber is called' } },
  });
  document = documentWith(
    {
      greet: { action: 'ai_generate_reply', inputs: {}, bindings: { memory: ['profile'] } },
      plain: { action: 'ai_generate_reply', inputs: {} },
      suggest: { action: 'ai_generate_object', inputs: {} },
      extract: { action: 'ai_infer_object', inputs: {} },
      assistant: { action: 'ai_agent', inputs: {} },
    },
    { profile: { kind: 'memory', settings: { definition_id: profileId } } },
    OFFLINE_MODEL,
  );
});
after(async () => {
  nock.enableNetConnect();
  await database.close();
});

async function greet(ownerId: string, text: string) {
  const run = runOf(document, text, { ownerId });
  const outbox = new RecordingOutbox();
  const memory = await openRunMemory(run, { db: database.db, records });
  const output = await aiGenerateReplyAction.run(invocationOf(run, 'greet', {}), services({ memory, outbox, models }));
  return { output, outbox };
}

test('answers with the last user message, without any network', async () => {
  const run = runOf(document, 'hello there');
  const outbox = new RecordingOutbox();
  assert.deepEqual(await aiGenerateReplyAction.run(invocationOf(run, 'plain', {}), services({ outbox, models })), { text: 'Hi! You said: "hello there"' });
  assert.deepEqual(outbox.sent, [{ type: 'text', data: { text: 'Hi! You said: "hello there"' } }]);
});

test('in history mode it answers the last message of the window', async () => {
  const run = runOf(document, 'and now?');
  const history = new FixedHistory([{ role: 'user', text: 'first' }, { role: 'assistant', text: 'Hi!' }]);
  const output = await aiGenerateReplyAction.run(invocationOf(run, 'plain', { input_mode: 'history' }), services({ history, models }));
  assert.deepEqual(output, { text: 'Hi! You said: "and now?"' });
});

test('stores a name the user gives through update_memory, then greets them by it from Working Memory', async () => {
  const first = await greet('offline-owner', 'Hello, my name is ada');
  assert.deepEqual(first.output, { text: 'Hi Ada! You said: "Hello, my name is ada"' });
  assert.deepEqual(await storedValues(database.db, 'offline-owner', 'profile'), [{ name: 'Ada' }]);

  const later = await greet('offline-owner', 'how are you?');
  assert.deepEqual(later.output, { text: 'Hi Ada! You said: "how are you?"' });
});

test('without memory bindings it does not try to store the name', async () => {
  const run = runOf(document, 'my name is Grace', { ownerId: 'offline-unbound' });
  const output = await aiGenerateReplyAction.run(invocationOf(run, 'plain', {}), services({ models }));
  assert.deepEqual(output, { text: 'Hi Grace! You said: "my name is Grace"' });
  assert.deepEqual(await storedValues(database.db, 'offline-unbound', 'profile'), []);
});

test('generates an object valid for the requested schema', async () => {
  const schema = {
    type: 'object',
    properties: {
      title: { type: 'string', minLength: 3 },
      when: { type: 'string', format: 'date' },
      seats: { type: 'integer', minimum: 2, maximum: 8 },
      tags: { type: 'array', items: { type: 'string' }, minItems: 1 },
      kind: { enum: ['table', 'room'] },
      note: { type: 'string' },
    },
    required: ['title', 'when', 'seats', 'tags', 'kind'],
    additionalProperties: false,
  };
  const run = runOf(document, 'hi');
  const output = await aiGenerateObjectAction.run(invocationOf(run, 'suggest', { prompt: 'go', schema }), services({ models }));
  assert.deepEqual(output, { object: { title: 'go.', when: '2000-01-01', seats: 2, tags: ['go'], kind: 'table' } });
});

test('extracts a name from the inbound text', async () => {
  const schema = { type: 'object', properties: { first_name: { type: 'string' }, city: { type: 'string' } }, additionalProperties: false };
  const run = runOf(document, "Hi, I'm new here, my name is Lin");
  assert.deepEqual(await aiInferObjectAction.run(invocationOf(run, 'extract', { schema }), services({ models })), { object: { first_name: 'Lin' } });
});

test('runs as an agent', async () => {
  const run = runOf(document, 'hi');
  assert.deepEqual(await aiAgentAction.run(invocationOf(run, 'assistant', { prompt: 'ping' }), services({ models })), { text: 'Hi! You said: "ping"' });
});
