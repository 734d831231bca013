import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, test } from 'node:test';
import type { WorkflowDocument } from '../../../host/workflows/document/workflow-document.ts';
import type { WorkflowAction } from '../../../host/workflows/runtime/action.ts';
import { WorkflowRunner } from '../../../host/workflows/runtime/workflow-runner.ts';
import { createTestDatabase, type TestDatabase } from '../../support/test-database.ts';
import { FixedHistory, NO_MEMORY, RecordingOutbox, testModels } from './ai-fixtures.ts';

let database: TestDatabase;
before(async () => {
  database = await createTestDatabase();
});
after(() => database.close());

/** Two agents offering each other as tools: saving refuses this now, but older versions may hold it. */
const CYCLE: WorkflowDocument = {
  defs: {
    ping: { kind: 'task', action: 'ai_agent', inputs: { tools: ['pong'] } },
    pong: { kind: 'task', action: 'ai_agent', inputs: { tools: ['ping'] } },
  },
  flow: [{ do: 'ping' }],
};

/**
 * An `ai_agent` stand-in that calls its first tool at once, as a model caught in the cycle
 * would; it gives up by itself after 20 nested calls so the test fails rather than hangs when
 * nothing else stops it.
 */
function cyclingAgent(calls: string[]): WorkflowAction {
  return {
    name: 'ai_agent',
    async run({ taskName, inputs }, services) {
      calls.push(taskName);
      if (calls.length > 20) throw new Error('the tool cycle was not stopped');
      return services.tasks.runTask((inputs['tools'] as string[])[0]!, {});
    },
  };
}

test('agents calling each other as tools stop at the nesting limit with BOT_ERR_WORKFLOW_TOOL_DEPTH_EXCEEDED', async () => {
  const calls: string[] = [];
  const runner = new WorkflowRunner({
    db: database.db,
    now: () => new Date(),
    actions: new Map([['ai_agent', cyclingAgent(calls)]]),
    evaluateInputs: async (inputs) => inputs,
    openMemory: async () => ({ ...NO_MEMORY, end: async () => {} }),
    models: testModels(),
  });

  const result = await runner.run({
    workflowId: randomUUID(),
    workflowVersion: 1,
    document: CYCLE,
    ownerId: 'tester',
    mode: 'test',
    input: { message_type: 'text', text: 'hi' },
    outboxFor: () => new RecordingOutbox(),
    history: new FixedHistory(),
  });

  assert.equal(result.status, 'failed');
  assert.equal(result.error?.code, 'BOT_ERR_WORKFLOW_TOOL_DEPTH_EXCEEDED');
  assert.deepEqual(result.error?.details, { task: 'ping', maxDepth: 3 });
  // The step itself, then three nested tool calls; the fourth is refused before it runs.
  assert.deepEqual(calls, ['ping', 'pong', 'ping', 'pong']);
});
