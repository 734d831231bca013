import assert from 'node:assert/strict';
import { after, afterEach, before, test } from 'node:test';
import nock from 'nock';
import type { MemoryRecordStore } from '../../../host/memory/records/memory-record-store.ts';
import { aiGenerateReplyAction } from '../../../host/workflows/actions/ai-generate-reply.action.ts';
import { openRunMemory } from '../../../host/workflows/memory/run-memory.ts';
import type { TaskDef } from '../../../host/workflows/document/workflow-document.ts';
import type { RunState } from '../../../host/workflows/runtime/action.ts';
import { createTestDatabase, type TestDatabase } from '../../support/test-database.ts';
import { createRecordStore, insertMemoryDefinition, storedValues } from '../memory/run-memory-fixture.ts';
import {
  AI_API_KEY,
  chatServer,
  completion,
  documentWith,
  FixedHistory,
  invocationOf,
  RecordingOutbox,
  runOf,
  services,
  type HistoryEntry,
} from './ai-fixtures.ts';

let database: TestDatabase;
let records: MemoryRecordStore;
const ids: Record<string, string> = {};

// In the order PostgreSQL's jsonb keeps keys (shorter first), which the Working Memory follows.
const PROFILE_PROPERTIES = {
  age: { type: 'integer', description: 'Age in years' },
  name: { type: 'string', title: 'Name', description: 'What the subscriber is called' },
};

before(async () => {
  nock.disableNetConnect();
  database = await createTestDatabase();
  records = createRecordStore(database.db);
  ids.profile = await insertMemoryDefinition(database.db, { name: 'Profile', slug: 'profile', properties: PROFILE_PROPERTIES });
  ids.topic = await insertMemoryDefinition(database.db, { name: 'Topic', slug: 'topic', scope: 'thread' });
});
afterEach(() => nock.cleanAll());
after(async () => {
  nock.enableNetConnect();
  await database.close();
});

/** A reply task bound to the profile memory only, in a workflow that declares profile and topic. */
function replyRun(inputs: Record<string, unknown>, text: string, ownerId: string): RunState {
  const document = documentWith(
    { reply: { action: 'ai_generate_reply', inputs, bindings: { memory: ['profile'] } } },
    {
      profile: { kind: 'memory', settings: { definition_id: ids.profile! } },
      topic: { kind: 'memory', settings: { definition_id: ids.topic! } },
    },
  );
  return runOf(document, text, { ownerId });
}

async function runReply(run: RunState, history: HistoryEntry[] = []) {
  const memory = await openRunMemory(run, { db: database.db, records });
  const outbox = new RecordingOutbox();
  const historyService = new FixedHistory(history);
  const { inputs = {} } = run.document.defs['reply'] as TaskDef;
  const output = await aiGenerateReplyAction.run(invocationOf(run, 'reply', inputs), services({ memory, outbox, history: historyService }));
  return { output, outbox, history: historyService, memory };
}

test('the system message is the task system text, a blank line and the exact Working Memory block', async () => {
  const run = replyRun({ system: 'Be brief.\n' }, 'hello', 'owner-system');
  const seeded = await openRunMemory(run, { db: database.db, records });
  await seeded.update({ profile: { name: 'Ada', age: 36 } });
  const server = chatServer([[200, completion({ content: 'Hi Ada' })]]);

  await runReply(run);

  assert.deepEqual(server.bodies[0]!.messages[0], {
    role: 'system',
    content: 'Be brief.\n\n# Working Memory\n\n## Profile\n- age: 36\n- Name: Ada',
  });
});

test('without stored values the system message is the system text alone', async () => {
  const run = replyRun({ system: 'Be brief.' }, 'hello', 'owner-empty');
  const server = chatServer([[200, completion({ content: 'Hi' })]]);
  await runReply(run);
  assert.deepEqual(server.bodies[0]!.messages[0], { role: 'system', content: 'Be brief.' });
});

test('history mode sends the last messages_limit messages in order with their roles, the inbound one last and once', async () => {
  const history: HistoryEntry[] = [
    { role: 'user', text: 'one' },
    { role: 'assistant', text: 'two' },
    { role: 'user', text: 'three' },
    { role: 'assistant', text: 'four' },
    { role: 'user', text: 'five' },
  ];
  const run = replyRun({ input_mode: 'history', messages_limit: 3 }, 'five', 'owner-history');
  const server = chatServer([[200, completion({ content: 'six' })]]);

  const { history: asked } = await runReply(run, history);

  assert.deepEqual(asked.limits, [3]);
  assert.deepEqual(server.bodies[0]!.messages, [
    { role: 'user', content: 'three' },
    { role: 'assistant', content: 'four' },
    { role: 'user', content: 'five' },
  ]);
});

test('history mode appends the inbound message when the history does not hold it yet, still within the limit', async () => {
  const history: HistoryEntry[] = [
    { role: 'user', text: 'one' },
    { role: 'assistant', text: 'two' },
    { role: 'user', text: 'three' },
    { role: 'assistant', text: 'four' },
  ];
  const run = replyRun({ input_mode: 'history', messages_limit: 3 }, 'five', 'owner-append');
  const server = chatServer([[200, completion({ content: 'six' })]]);

  await runReply(run, history);

  assert.deepEqual(server.bodies[0]!.messages, [
    { role: 'user', content: 'three' },
    { role: 'assistant', content: 'four' },
    { role: 'user', content: 'five' },
  ]);
});

test('history mode leaves out messages without text, such as an attachment with no caption', async () => {
  const history: HistoryEntry[] = [
    { role: 'user', text: 'look at this' },
    { role: 'user', text: '' },
    { role: 'user', text: 'well?' },
  ];
  const run = replyRun({ input_mode: 'history' }, 'well?', 'owner-blank');
  const server = chatServer([[200, completion({ content: 'Nice.' })]]);
  await runReply(run, history);
  assert.deepEqual(server.bodies[0]!.messages, [
    { role: 'user', content: 'look at this' },
    { role: 'user', content: 'well?' },
  ]);
});

test('without input_mode the prompt is the inbound text, and the reply goes out through the outbox', async () => {
  const run = replyRun({}, 'what time is it?', 'owner-prompt');
  const server = chatServer([[200, completion({ content: 'Noon.' })]]);

  const { output, outbox } = await runReply(run);

  assert.deepEqual(server.bodies[0]!.messages, [{ role: 'user', content: 'what time is it?' }]);
  assert.equal(server.authorizations[0], `Bearer ${AI_API_KEY}`);
  assert.equal(server.bodies[0]!.model, 'gpt-test');
  assert.deepEqual(output, { text: 'Noon.' });
  assert.deepEqual(outbox.sent, [{ type: 'text', data: { text: 'Noon.' } }]);
});

test('offers update_memory with only the bound slugs', async () => {
  const run = replyRun({}, 'hello', 'owner-tool');
  const server = chatServer([[200, completion({ content: 'Hi' })]]);

  await runReply(run);

  const tools = server.bodies[0]!.tools ?? [];
  assert.deepEqual(tools.map((tool) => tool.function.name), ['update_memory']);
  const memorySchema = tools[0]!.function.parameters['properties'].memory;
  assert.deepEqual(Object.keys(memorySchema.properties), ['profile']);
  assert.deepEqual(memorySchema.properties.profile.properties, PROFILE_PROPERTIES);
});

test('a tool call to update_memory stores the value in Postgres and the next answer is the reply', async () => {
  const run = replyRun({ system: 'Save the name the user gives.' }, 'my name is Grace', 'owner-write');
  const server = chatServer([
    [200, completion({ toolCalls: [{ name: 'update_memory', arguments: { memory: { profile: { name: 'Grace' } } } }] })],
    [200, completion({ content: 'Nice to meet you, Grace!' })],
  ]);

  const { output, outbox } = await runReply(run);

  assert.deepEqual(await storedValues(database.db, 'owner-write', 'profile'), [{ name: 'Grace' }]);
  assert.deepEqual(run.context.memory['profile'], { name: 'Grace' });
  assert.deepEqual(output, { text: 'Nice to meet you, Grace!' });
  assert.deepEqual(outbox.sent, [{ type: 'text', data: { text: 'Nice to meet you, Grace!' } }]);
  const toolMessage = server.bodies[1]!.messages.find((message) => message.role === 'tool');
  assert.equal(toolMessage?.tool_call_id, 'call_1');
  assert.deepEqual(JSON.parse(String(toolMessage?.content)), { saved: ['profile'] });
});

test('a task without memory bindings is offered no tools', async () => {
  const document = documentWith({ reply: { action: 'ai_generate_reply', inputs: {} } });
  const run = runOf(document, 'hello');
  const server = chatServer([[200, completion({ content: 'Hi' })]]);
  await aiGenerateReplyAction.run(invocationOf(run, 'reply', {}), services());
  assert.equal(server.bodies[0]!.tools, undefined);
});

test('passes temperature and max_output_tokens to the model', async () => {
  const document = documentWith({ reply: { action: 'ai_generate_reply', inputs: {} } });
  const run = runOf(document, 'hello');
  const server = chatServer([[200, completion({ content: 'Hi' })]]);
  await aiGenerateReplyAction.run(invocationOf(run, 'reply', { temperature: 0.2, max_output_tokens: 50 }), services());
  assert.equal(server.bodies[0]!.temperature, 0.2);
  assert.equal(server.bodies[0]!.max_tokens, 50);
});

test('rejects a reply with no text to answer, before calling the model', async () => {
  const document = documentWith({ reply: { action: 'ai_generate_reply', inputs: {} } });
  const run = runOf(document, '');
  await assert.rejects(aiGenerateReplyAction.run(invocationOf(run, 'reply', {}), services()), { code: 'BOT_ERR_AI_INPUT_INVALID' });
  await assert.rejects(aiGenerateReplyAction.run(invocationOf(run, 'reply', { messages_limit: 0 }), services()), {
    code: 'BOT_ERR_AI_INPUT_INVALID',
  });
});
