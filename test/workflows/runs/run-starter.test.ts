import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, test } from 'node:test';
import type { WorkflowDocument } from '../../../host/workflows/document/workflow-document.ts';
import type { WorkflowAction } from '../../../host/workflows/runtime/action.ts';
import type { RunStartRow } from '../../../host/workflows/runtime/run-records.ts';
import type { RunStarter } from '../../../host/workflows/runtime/workflow-runner.ts';
import { createTestApp, type TestApp } from '../../support/test-app.ts';
import { createNameDefinition, testRunner } from './runner-fixture.ts';
import { FixedHistory, RecordingOutbox } from '../ai/ai-fixtures.ts';

// A run whose caller records its start (the dispatcher, entering the conversation) reads its
// memory side by side, for the owner it expects; what the start then says decides what it reads.

let t: TestApp;
const ids: Record<'profile' | 'notes', string> = { profile: '', notes: '' };
before(async () => {
  t = await createTestApp();
  ids.profile = await createNameDefinition(t, 'profile');
  ids.notes = await createNameDefinition(t, 'notes', 'thread');
});
after(() => t.close());

/** What the run's one step saw in `$context.memory`, and what its start recorded. */
interface Seen {
  memory: Record<string, unknown> | undefined;
  status: string;
}

/**
 * Runs a one-step workflow declaring the given memory defs, started by `starter`; `opened` is
 * told each time the run's memory is read.
 */
async function runWith(defs: ('profile' | 'notes')[], starter: RunStarter, opened: () => void = () => {}): Promise<Seen> {
  let memory: Record<string, unknown> | undefined;
  const look: WorkflowAction = {
    name: 'ai_agent',
    run: async ({ run }) => {
      memory = structuredClone(run.context.memory);
      return null;
    },
  };
  const runner = testRunner(t, [look], opened);
  const document = {
    defs: {
      ...Object.fromEntries(defs.map((slug) => [slug, { kind: 'memory', settings: { definition_id: ids[slug] } }])),
      look: { kind: 'task', action: 'ai_agent', inputs: {} },
    },
    flow: [{ do: 'look' }],
  } as unknown as WorkflowDocument;
  const result = await runner.run({
    workflowId: randomUUID(),
    workflowVersion: 1,
    document,
    starter,
    mode: 'test',
    input: { message_type: 'text', text: 'hi' },
    outboxFor: () => new RecordingOutbox(),
    history: new FixedHistory(),
  });
  assert.equal(result.status, 'succeeded', JSON.stringify(result.error));
  return { memory, status: result.status };
}

/** A start that records the run's row as the runner would, for `owner` in `threadId`. */
function recordingStart(owner: string, threadId: string, before: () => Promise<void> = async () => {}): RunStarter['start'] {
  return async (row: RunStartRow) => {
    await before();
    await t.database.db('workflow_runs').insert({ ...row, owner_id: owner, thread_id: null, status: 'running', input: JSON.stringify(row.input) });
    return { ownerId: owner, threadId };
  };
}

test('the memory of the owner the caller expects is read while the caller records the start', { timeout: 30_000 }, async () => {
  const owner = `test:${randomUUID()}`;
  await t.services.memoryRecords.write({ ownerId: owner }, { profile: { name: 'Ada' } });
  let read!: () => void;
  const memoryRead = new Promise<void>((resolve) => (read = resolve));
  // The start waits for the memory to be read: a runner reading it only after the start never ends.
  const seen = await runWith(['profile'], { expectedOwnerId: owner, start: recordingStart(owner, randomUUID(), () => memoryRead) }, () => read());
  assert.deepEqual(seen.memory, { profile: { name: 'Ada' } });
});

test('memory read for an owner the start does not confirm is read again, for the owner it names', async () => {
  const expected = `test:${randomUUID()}`;
  const actual = `test:${randomUUID()}`;
  await t.services.memoryRecords.write({ ownerId: expected }, { profile: { name: 'Old' } });
  await t.services.memoryRecords.write({ ownerId: actual }, { profile: { name: 'New' } });
  let reads = 0;
  const seen = await runWith(['profile'], { expectedOwnerId: expected, start: recordingStart(actual, randomUUID()) }, () => (reads += 1));
  assert.deepEqual(seen.memory, { profile: { name: 'New' } });
  assert.equal(reads, 2);
});

test('without an expected owner the memory is read once, after the start', async () => {
  const owner = `test:${randomUUID()}`;
  await t.services.memoryRecords.write({ ownerId: owner }, { profile: { name: 'Bo' } });
  let started = false;
  const order: string[] = [];
  const record = recordingStart(owner, randomUUID());
  const start: RunStarter['start'] = async (row) => {
    const party = await record(row);
    started = true;
    return party;
  };
  const seen = await runWith(['profile'], { expectedOwnerId: undefined, start }, () => order.push(started ? 'read after start' : 'read before start'));
  assert.deepEqual(order, ['read after start']);
  assert.deepEqual(seen.memory, { profile: { name: 'Bo' } });
});

test('a thread-scoped definition is read again once the start names the thread', async () => {
  const owner = `test:${randomUUID()}`;
  const threadId = randomUUID();
  await t.services.memoryRecords.write({ ownerId: owner, threadId }, { notes: { name: 'in this thread' } });
  const seen = await runWith(['notes'], { expectedOwnerId: owner, start: recordingStart(owner, threadId) });
  assert.deepEqual(seen.memory, { notes: { name: 'in this thread' } });
});

test('a global definition alone is read once when the start confirms the owner', async () => {
  const owner = `test:${randomUUID()}`;
  let reads = 0;
  await runWith(['profile'], { expectedOwnerId: owner, start: recordingStart(owner, randomUUID()) }, () => (reads += 1));
  assert.equal(reads, 1);
});
