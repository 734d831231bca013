import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { bindDefinitionPlaceholders } from '../../../host/workflows/document/bind-definition-placeholders.ts';
import { createTestApp, type TestApp } from '../../support/test-app.ts';

const GREETING = readFileSync(new URL('../../../workflows/examples/greeting.yaml', import.meta.url), 'utf8');

let t: TestApp;
let workflowId: string;
before(async () => {
  t = await createTestApp();
  const definition = await t.request('POST', '/api/memory-definitions', {
    as: 'admin',
    body: { name: 'Profile', slug: 'profile', scope: 'global', schema: { type: 'object', properties: { name: { type: 'string', description: 'Name' } } } },
  });
  const created = await t.request('POST', '/api/workflows', {
    as: 'admin',
    body: { name: 'Greeting', yaml: bindDefinitionPlaceholders(GREETING, new Map([['profile', definition.body.id]])) },
  });
  assert.equal(created.status, 201, created.text);
  workflowId = created.body.id;
});
after(() => t.close());

const testRun = (body: unknown, as = 'editor') => t.request('POST', `/api/workflows/${workflowId}/runs`, { as, body });

test('a test run answers with each step and the messages it would send, and sends nothing', async () => {
  const response = await testRun({ input: { text: 'my name is Ada' }, ownerId: 'tester-1' });
  assert.equal(response.status, 200, response.text);
  assert.equal(response.body.status, 'succeeded');
  assert.equal(response.body.mode, 'test');
  assert.deepEqual(response.body.steps.map((step: { task: string; status: string }) => [step.task, step.status]), [['remember_name', 'succeeded'], ['greet', 'succeeded']]);
  assert.deepEqual(response.body.steps[1].inputs, { text: 'Hello Ada!' });
  assert.deepEqual(response.body.messages, [{ type: 'text', data: { text: 'Hello Ada!' } }]);
  assert.deepEqual(await t.database.db('outbound_messages').select('id'), [], 'a test run records no send');

  const again = await testRun({ input: { text: 'hi' }, ownerId: 'tester-1' });
  assert.deepEqual(again.body.messages, [{ type: 'text', data: { text: 'Hello Ada!' } }], 'the owner’s memory carried over');
  const stranger = await testRun({ input: { text: 'hi' } });
  assert.deepEqual(stranger.body.messages, [{ type: 'text', data: { text: 'Hello! What is your name?' } }], 'the caller owns its own memory');
  assert.equal(again.body.ownerId, 'test:tester-1');
});

test('a run records each step before the next one starts, and its last step with its end, in one statement', async () => {
  const response = await testRun({ input: { text: 'my name is Bo' } });
  assert.equal(response.status, 200, response.text);
  const db = t.database.db;
  const run = await db('workflow_runs').where('id', response.body.id).first<{ status: string; xmin: string }>('status', db.raw('xmin::text'));
  assert.equal(run?.status, 'succeeded');
  const steps: { task: string; xmin: string }[] = await db('workflow_run_steps').where('run_id', response.body.id).orderBy('position').select('task', db.raw('xmin::text'));
  assert.deepEqual(steps.map(({ task, xmin }) => [task, xmin === run.xmin]), [['remember_name', false], ['greet', true]]);
});

test("a test run never reads or writes a real subscriber's memory, even when given their id", async () => {
  await t.services.memoryRecords.write({ ownerId: 'subscriber-real' }, { profile: { name: 'Real' } });
  const response = await testRun({ input: { text: 'my name is Mallory' }, ownerId: 'subscriber-real' });
  assert.deepEqual(response.body.messages, [{ type: 'text', data: { text: 'Hello Mallory!' } }]);
  const [record] = await t.database.db('memory_records').where({ owner_id: 'subscriber-real' });
  assert.deepEqual(record.value, { name: 'Real' }, 'untouched');
});

test('a failing step is reported with its code, and the run is listed and readable', async () => {
  const yaml = 'defs:\n  say:\n    kind: task\n    action: send_text_message\n    inputs:\n      text: "=$input.payload.missing"\nflow:\n  - do: say\n';
  const broken = await t.request('POST', '/api/workflows', { as: 'admin', body: { name: 'Broken', yaml } });
  assert.equal(broken.status, 201, broken.text);
  const response = await t.request('POST', `/api/workflows/${broken.body.id}/runs`, { as: 'admin', body: { input: { text: 'hi' } } });
  assert.equal(response.body.status, 'failed');
  assert.equal(response.body.steps[0].error.code, 'BOT_ERR_WORKFLOW_INPUT_INVALID');
  assert.deepEqual(response.body.messages, []);

  const listed = await t.request('GET', `/api/runs?workflowId=${broken.body.id}`, { as: 'viewer' });
  assert.equal(listed.body.total, 1);
  const read = await t.request('GET', `/api/runs/${response.body.id}`, { as: 'viewer' });
  assert.equal(read.body.steps[0].status, 'failed');
  assert.equal((await t.request('GET', '/api/runs/not-a-uuid', { as: 'viewer' })).status, 404);
});

test('test runs need run:create; an unknown workflow is 404', async () => {
  assert.equal((await testRun({ input: { text: 'hi' } }, 'viewer')).status, 403);
  const unknown = await t.request('POST', '/api/workflows/00000000-0000-4000-8000-000000000000/runs', { as: 'admin', body: { input: {} } });
  assert.equal(unknown.status, 404);
});

test('a test run of an unsaved draft runs the draft, saves nothing, and is recorded as a draft of the current version', async () => {
  const saved = await t.request('GET', `/api/workflows/${workflowId}`, { as: 'admin' });
  const versionsBefore = await t.database.db('workflow_versions').where({ workflow_id: workflowId }).orderBy('version').select('version', 'yaml');
  const draftYaml = saved.body.yaml.replace('"Hello! What is your name?"', '"Hi there, who are you?"');
  assert.notEqual(draftYaml, saved.body.yaml);

  const response = await testRun({ input: { text: 'hi' }, ownerId: 'draft-tester', yaml: draftYaml });
  assert.equal(response.status, 200, response.text);
  assert.deepEqual(response.body.messages, [{ type: 'text', data: { text: 'Hi there, who are you?' } }], 'the draft’s behaviour');
  assert.equal(response.body.draft, true);
  assert.equal(response.body.workflowVersion, saved.body.currentVersion, 'the version it was edited from');

  assert.deepEqual(await t.database.db('workflow_versions').where({ workflow_id: workflowId }).orderBy('version').select('version', 'yaml'), versionsBefore, 'no version saved');
  assert.equal((await t.request('GET', `/api/workflows/${workflowId}`, { as: 'admin' })).body.yaml, saved.body.yaml);
  const read = await t.request('GET', `/api/runs/${response.body.id}`, { as: 'viewer' });
  assert.equal(read.body.draft, true);
  const listed = await t.request('GET', `/api/runs?workflowId=${workflowId}&mode=test&limit=200`, { as: 'viewer' });
  const drafts = listed.body.items.filter((run: { draft: boolean }) => run.draft).map((run: { id: string }) => run.id);
  assert.deepEqual(drafts, [response.body.id], 'only the draft run is listed as a draft');

  const savedRun = await testRun({ input: { text: 'hi' }, ownerId: 'draft-tester' });
  assert.equal(savedRun.body.draft, false);
  assert.deepEqual(savedRun.body.messages, [{ type: 'text', data: { text: 'Hello! What is your name?' } }], 'without yaml, the saved version');
});

test('an invalid draft is refused with the same 422 code and problems as a save; yaml with version is refused', async () => {
  const invalidYaml = 'defs:\n  say:\n    kind: task\n    action: send_text_message\n    inputs:\n      text: hi\nflow:\n  - do: sayy\n';
  const runsBefore = await t.database.db('workflow_runs').count<{ count: string }[]>({ count: '*' });
  const draft = await testRun({ input: { text: 'hi' }, yaml: invalidYaml });
  const save = await t.request('PUT', `/api/workflows/${workflowId}`, { as: 'admin', body: { yaml: invalidYaml } });
  assert.equal(save.status, 422);
  assert.equal(draft.status, 422, draft.text);
  assert.equal(draft.body.error.code, 'BOT_ERR_WORKFLOW_INVALID');
  assert.equal(draft.body.error.code, save.body.error.code);
  assert.deepEqual(draft.body.error.details.problems, save.body.error.details.problems);
  assert.ok(draft.body.error.details.problems.length > 0);

  const both = await testRun({ input: { text: 'hi' }, yaml: GREETING, version: 1 });
  assert.equal(both.status, 422, both.text);
  assert.equal(both.body.error.code, 'BOT_ERR_RUN_DRAFT_WITH_VERSION');
  assert.deepEqual(await t.database.db('workflow_runs').count<{ count: string }[]>({ count: '*' }), runsBefore, 'no run recorded');
});

test("update_memory's write commits with its step's record, in one statement", async () => {
  const db = t.database.db;
  // The first write reads the definitions; from the second on they are cached, and the write is
  // staged for the step's record.
  await testRun({ input: { text: 'my name is Cy' }, ownerId: 'one-commit' });
  const response = await testRun({ input: { text: 'my name is Cyd' }, ownerId: 'one-commit' });
  assert.equal(response.body.status, 'succeeded', response.text);
  const step = await db('workflow_run_steps').where({ run_id: response.body.id, task: 'remember_name' }).first(db.raw('xmin::text'));
  const record = await db('memory_records').where({ owner_id: 'test:one-commit' }).first('value', db.raw('xmin::text'));
  assert.deepEqual(record?.value, { name: 'Cyd' });
  assert.equal(record?.xmin, step?.xmin, 'the record and the step that wrote it were committed together');
});

test('a staged write whose definition changed meanwhile is checked again against the new schema: refused, the step fails and nothing is written', async () => {
  const db = t.database.db;
  await testRun({ input: { text: 'my name is Di' }, ownerId: 'changed' });
  await testRun({ input: { text: 'my name is Dia' }, ownerId: 'changed' });
  // Changed behind the cache's back: names must now be numbers.
  await db('memory_definitions').where({ slug: 'profile' }).update({
    schema: JSON.stringify({ type: 'object', properties: { name: { type: 'number', description: 'Name' } } }),
    updated_at: db.raw("updated_at + interval '1 second'"),
  });
  try {
    const response = await testRun({ input: { text: 'my name is Dian' }, ownerId: 'changed' });
    assert.equal(response.body.status, 'failed', response.text);
    assert.equal(response.body.steps[0].task, 'remember_name');
    assert.equal(response.body.steps[0].error.code, 'BOT_ERR_MEMORY_VALUE_INVALID');
    const [record] = await db('memory_records').where({ owner_id: 'test:changed' });
    assert.deepEqual(record.value, { name: 'Dia' }, 'the refused value was not written');
  } finally {
    await db('memory_definitions').where({ slug: 'profile' }).update({
      schema: JSON.stringify({ type: 'object', properties: { name: { type: 'string', description: 'Name' } } }),
      updated_at: db.raw("updated_at + interval '1 second'"),
    });
  }
});
