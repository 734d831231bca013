import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, test } from 'node:test';
import { updateMemoryAction } from '../../../host/workflows/actions/update-memory.action.ts';
import type { WorkflowDocument } from '../../../host/workflows/document/workflow-document.ts';
import type { WorkflowAction } from '../../../host/workflows/runtime/action.ts';
import { createTestApp, type TestApp } from '../../support/test-app.ts';
import { createNameDefinition, testRunner } from './runner-fixture.ts';
import { FixedHistory, RecordingOutbox } from '../ai/ai-fixtures.ts';

// An update_memory step's write is staged and committed with the step's record. Run as an agent's
// custom tool, the same action must write at once: the model is told the write is done, and may
// write again, or fail, before its step ends.

let t: TestApp;
let definitionId: string;
before(async () => {
  t = await createTestApp();
  definitionId = await createNameDefinition(t, 'profile');
  // The definitions are cached after a first write: from then on a step's write is staged.
  assert.equal((await run(agent(async () => null), 'save_a', 'test:warm')).status, 'succeeded');
});
after(() => t.close());

/** A stand-in for ai_agent: calls its tools as a model would. */
function agent(behaviour: (services: Parameters<WorkflowAction['run']>[1]) => Promise<unknown>): WorkflowAction {
  return { name: 'ai_agent', run: (_invocation, services) => behaviour(services) };
}

function run(agentAction: WorkflowAction, flowTask: string, ownerId: string) {
  const runner = testRunner(t, [updateMemoryAction, agentAction]);
  const document = {
    defs: {
      profile: { kind: 'memory', settings: { definition_id: definitionId } },
      save_a: { kind: 'task', action: 'update_memory', inputs: { memory: { profile: { name: 'A' } } } },
      save_b: { kind: 'task', action: 'update_memory', inputs: { memory: { profile: { name: 'B' } } } },
      agent: { kind: 'task', action: 'ai_agent', inputs: { tools: ['save_a', 'save_b'] } },
    },
    flow: [{ do: flowTask }],
  } as unknown as WorkflowDocument;
  return runner.run({
    workflowId: randomUUID(),
    workflowVersion: 1,
    document,
    ownerId,
    mode: 'test',
    input: { message_type: 'text', text: 'hi' },
    outboxFor: () => new RecordingOutbox(),
    history: new FixedHistory(),
  } as never);
}

const stored = async (ownerId: string) => (await t.database.db('memory_records').where({ owner_id: ownerId }).first('value'))?.value;

test('two custom tools writing memory in one agent step: each writes at once, and the later value stays', async () => {
  const result = await run(
    agent(async ({ tasks }) => {
      await tasks.runTask('save_a', {});
      await tasks.runTask('save_b', {});
      return { ok: true };
    }),
    'agent',
    'test:two-tools',
  );
  assert.equal(result.status, 'succeeded', JSON.stringify(result.error));
  assert.deepEqual(await stored('test:two-tools'), { name: 'B' });
});

test('a custom tool whose write the model was told of keeps it when the agent fails afterwards', async () => {
  const result = await run(
    agent(async ({ tasks }) => {
      await tasks.runTask('save_a', {});
      throw new Error('the model failed after the tool answered');
    }),
    'agent',
    'test:tool-then-failure',
  );
  assert.equal(result.status, 'failed');
  assert.deepEqual(await stored('test:tool-then-failure'), { name: 'A' });
});
