import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before } from 'node:test';
import type { RunOutbox } from '../../../host/outbox/run-outbox.ts';
import type { SendClaimer } from '../../../host/outbox/outbox-records.ts';
import { updateMemoryAction } from '../../../host/workflows/actions/update-memory.action.ts';
import { sendTextMessageAction } from '../../../host/workflows/actions/send-text-message.action.ts';
import type { WorkflowDocument } from '../../../host/workflows/document/workflow-document.ts';
import { openRunMemory } from '../../../host/workflows/memory/run-memory.ts';
import type { RunState, WorkflowAction } from '../../../host/workflows/runtime/action.ts';
import { WorkflowRunner } from '../../../host/workflows/runtime/workflow-runner.ts';
import { createTestApp, type TestApp } from '../../support/test-app.ts';
import { FixedHistory, testModels } from '../ai/ai-fixtures.ts';

/** A memory definition with one string property `name`; returns its id. */
export async function createNameDefinition(t: TestApp, slug: string, scope: 'global' | 'thread' = 'global'): Promise<string> {
  const definition = await t.request('POST', '/api/memory-definitions', {
    as: 'admin',
    body: { name: slug, slug, scope, schema: { type: 'object', properties: { name: { type: 'string', description: 'Name' } } } },
  });
  assert.equal(definition.status, 201, definition.text);
  return definition.body.id;
}

/** For a test file: an app with a global `profile` definition, opened before its tests and closed after them. */
export function appWithProfile(): { readonly app: TestApp; readonly profileId: string } {
  const state = {} as { app: TestApp; profileId: string };
  before(async () => {
    state.app = await createTestApp();
    state.profileId = await createNameDefinition(state.app, 'profile');
  });
  after(() => state.app.close());
  return state;
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

/**
 * An outbox that takes the claimer the runner hands it (a step record carried by the first send's
 * claim) and claims each send with it, or as a lone pending send; nothing goes to a platform.
 */
export function carryingOutbox(): RunOutbox {
  let claimer: SendClaimer | undefined;
  return {
    carryFirstClaim(c) { claimer = c; },
    async send(envelope) {
      const c = claimer ?? (async () => ({ id: randomUUID(), status: 'pending' as const, mid: null }));
      claimer = undefined;
      await c({ sendKey: randomUUID(), inboundEventId: randomUUID(), runId: randomUUID(), sourceId: randomUUID(), threadId: randomUUID(), envelope }, false);
      return { mid: undefined };
    },
    takeSentReplies: () => [],
  };
}

/** A runner with the actions `runRememberThenReply` needs. */
export function rememberThenReplyRunner(t: TestApp): WorkflowRunner {
  return testRunner(t, [updateMemoryAction, sendTextMessageAction]);
}

/**
 * A test run of two steps for `owner`: `update_memory` writes `name` into `profile`, then a
 * `send_text_message`; on a runner of its own unless given one (runs of one runner share its
 * batched statements).
 */
export function runRememberThenReply(t: TestApp, profileId: string, owner: string, name: string, runner = rememberThenReplyRunner(t)) {
  const document = {
    defs: {
      profile: { kind: 'memory', settings: { definition_id: profileId } },
      remember: { kind: 'task', action: 'update_memory', inputs: { memory: { profile: { name } } } },
      reply: { kind: 'task', action: 'send_text_message', inputs: { text: 'hi' } },
    },
    flow: [{ do: 'remember' }, { do: 'reply' }],
  } as unknown as WorkflowDocument;
  return runner.run({
    workflowId: randomUUID(), workflowVersion: 1, document, ownerId: owner, mode: 'test',
    input: { message_type: 'text', text: 'hi' }, outboxFor: () => carryingOutbox(), history: new FixedHistory(),
  });
}
