import assert from 'node:assert/strict';
import { after, afterEach, before, test } from 'node:test';
import { tool, jsonSchema } from 'ai';
import nock from 'nock';
import { aiAgentAction } from '../../../host/workflows/actions/ai-agent.action.ts';
import { AppError } from '../../../host/errors/app-error.ts';
import type { RunMemory, TaskRunner } from '../../../host/workflows/runtime/action.ts';
import { chatServer, completion, documentWith, invocationOf, NO_MEMORY, RecordingTasks, runOf, services } from './ai-fixtures.ts';

before(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());
after(() => nock.enableNetConnect());

const document = documentWith({
  assistant: { action: 'ai_agent', inputs: {} },
  lookup_order: { action: 'send_text_message', description: 'Looks up an order by its number', inputs: { text: 'x' } },
  cancel_order: { action: 'send_text_message', inputs: { text: 'y' } },
});

test('offers each named task as a tool described by its def, runs it when called, and returns the final text', async () => {
  const tasks = new RecordingTasks({ status: 'shipped' });
  const server = chatServer([
    [200, completion({ toolCalls: [{ name: 'lookup_order', arguments: { number: '42' } }] })],
    [200, completion({ content: 'Order 42 has shipped.' })],
  ]);
  const run = runOf(document, 'where is order 42?');

  const output = await aiAgentAction.run(invocationOf(run, 'assistant', { prompt: 'where is order 42?', tools: ['lookup_order', 'cancel_order'] }), services({ tasks }));

  assert.deepEqual(output, { text: 'Order 42 has shipped.' });
  assert.deepEqual(tasks.calls, [{ taskName: 'lookup_order', toolInput: { number: '42' } }]);
  const offered = server.bodies[0]!.tools!.map(({ function: fn }) => [fn.name, fn.description]);
  assert.deepEqual(offered.sort(), [
    ['cancel_order', 'Runs the workflow task "cancel_order".'],
    ['lookup_order', 'Looks up an order by its number'],
  ]);
  const toolMessage = server.bodies[1]!.messages.find((message) => message.role === 'tool');
  assert.deepEqual(JSON.parse(String(toolMessage?.content)), { status: 'shipped' });
});

test('offers update_memory beside the custom tools when the task binds memory', async () => {
  const memory: RunMemory = {
    ...NO_MEMORY,
    updateTool: () => tool({ description: 'Saves working memory.', inputSchema: jsonSchema({ type: 'object' }), execute: async () => ({ saved: [] }) }),
  };
  const server = chatServer([[200, completion({ content: 'ok' })]]);
  await aiAgentAction.run(invocationOf(runOf(document), 'assistant', { prompt: 'hi', tools: ['lookup_order'] }), services({ memory }));
  assert.deepEqual(server.bodies[0]!.tools!.map(({ function: fn }) => fn.name).sort(), ['lookup_order', 'update_memory']);
});

test('stops after max_steps model calls', async () => {
  const tasks = new RecordingTasks();
  const callAgain = completion({ toolCalls: [{ name: 'lookup_order', arguments: {} }] });
  const server = chatServer([
    [200, callAgain],
    [200, callAgain],
    [200, completion({ content: 'never asked' })],
  ]);
  const invocation = invocationOf(runOf(document), 'assistant', { prompt: 'loop', tools: ['lookup_order'], max_steps: 2 });

  await assert.rejects(aiAgentAction.run(invocation, services({ tasks })), { code: 'BOT_ERR_AI_OUTPUT_INVALID' });
  assert.equal(server.bodies.length, 2);
  assert.equal(tasks.calls.length, 2);
});

test('a tool that fails while running fails the step at once, without another model call', async () => {
  const tasks: TaskRunner = {
    runTask: async () => {
      throw new AppError('BOT_ERR_DB_UNAVAILABLE', 'The database cannot be reached');
    },
  };
  const server = chatServer([
    [200, completion({ toolCalls: [{ name: 'lookup_order', arguments: { number: '42' } }] })],
    [200, completion({ content: 'never asked' })],
  ]);
  const invocation = invocationOf(runOf(document), 'assistant', { prompt: 'where is 42?', tools: ['lookup_order'] });
  await assert.rejects(aiAgentAction.run(invocation, services({ tasks })), { code: 'BOT_ERR_DB_UNAVAILABLE' });
  assert.equal(server.bodies.length, 1);
});

test('a call to a tool that does not exist goes back to the model, which may correct itself', async () => {
  const tasks = new RecordingTasks();
  const server = chatServer([
    [200, completion({ toolCalls: [{ name: 'lookup_ordre', arguments: {} }] })],
    [200, completion({ content: 'Sorry, let me answer directly.' })],
  ]);
  const invocation = invocationOf(runOf(document), 'assistant', { prompt: 'hi', tools: ['lookup_order'] });
  assert.deepEqual(await aiAgentAction.run(invocation, services({ tasks })), { text: 'Sorry, let me answer directly.' });
  assert.equal(server.bodies.length, 2);
  assert.deepEqual(tasks.calls, []);
});

test('rejects a tool that is not a task of the workflow, or the reserved update_memory, before calling the model', async () => {
  for (const tools of [['no_such_task'], ['chat'], ['update_memory']]) {
    await assert.rejects(aiAgentAction.run(invocationOf(runOf(document), 'assistant', { prompt: 'hi', tools }), services()), {
      code: 'BOT_ERR_AI_INPUT_INVALID',
    });
  }
});
