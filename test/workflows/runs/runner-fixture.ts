import assert from 'node:assert/strict';
import { openRunMemory } from '../../../host/workflows/memory/run-memory.ts';
import type { RunState, WorkflowAction } from '../../../host/workflows/runtime/action.ts';
import { WorkflowRunner } from '../../../host/workflows/runtime/workflow-runner.ts';
import type { TestApp } from '../../support/test-app.ts';
import { testModels } from '../ai/ai-fixtures.ts';

/** A memory definition with one string property `name`; returns its id. */
export async function createNameDefinition(t: TestApp, slug: string, scope: 'global' | 'thread' = 'global'): Promise<string> {
  const definition = await t.request('POST', '/api/memory-definitions', {
    as: 'admin',
    body: { name: slug, slug, scope, schema: { type: 'object', properties: { name: { type: 'string', description: 'Name' } } } },
  });
  assert.equal(definition.status, 201, definition.text);
  return definition.body.id;
}

/**
 * The workflow runner on the app's database and memory store, with only `actions`, inputs taken
 * as written (no expressions) and the test models; `opened` is told each time a run's memory is read.
 */
export function testRunner(t: TestApp, actions: WorkflowAction[], opened: () => void = () => {}): WorkflowRunner {
  return new WorkflowRunner({
    db: t.database.db,
    now: () => new Date(),
    actions: new Map(actions.map((action) => [action.name, action])),
    evaluateInputs: async (inputs: Record<string, unknown>) => inputs,
    openMemory: (state: RunState) => {
      opened();
      return openRunMemory(state, { db: t.database.db, records: t.services.memoryRecords });
    },
    models: testModels(),
  } as unknown as ConstructorParameters<typeof WorkflowRunner>[0]);
}
