import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createTestApp, type TestApp } from '../../support/test-app.ts';
import { createMemoryDefinition, createWorkflow, WORKFLOWS_URL, workflowYaml } from './workflow-requests.ts';

let t: TestApp;
before(async () => (t = await createTestApp()));
after(() => t.close());

const UNKNOWN_DEFINITION = '00000000-0000-4000-8000-000000000000';
const BROKEN = workflowYaml().replace('action: send_text_message', 'action: send_fax').replace('- do: say', '- do: shout');

test('saving invalid YAML answers 422 BOT_ERR_WORKFLOW_INVALID listing every problem with path and line', async () => {
  const response = await t.request('POST', WORKFLOWS_URL, { as: 'admin', body: { name: 'Broken', yaml: BROKEN } });
  assert.equal(response.status, 422);
  assert.equal(response.body.error.code, 'BOT_ERR_WORKFLOW_INVALID');
  assert.deepEqual(
    response.body.error.details.problems.map(({ path, line, code }: Record<string, unknown>) => ({ path, line, code })),
    [
      { path: 'defs.say.action', line: 5, code: 'BOT_ERR_WORKFLOW_ACTION_UNKNOWN' },
      { path: 'flow.0.do', line: 9, code: 'BOT_ERR_WORKFLOW_TASK_UNKNOWN' },
    ],
  );
  assert.equal((await t.request('GET', `${WORKFLOWS_URL}?q=Broken`, { as: 'admin' })).body.total, 0, 'nothing was saved');
});

test('a YAML syntax error on save answers 422 with its line', async () => {
  const response = await t.request('POST', WORKFLOWS_URL, { as: 'admin', body: { name: 'Unparsable', yaml: 'defs:\n  say: [\nflow: x\n' } });
  assert.equal(response.status, 422);
  const [problem] = response.body.error.details.problems;
  assert.equal(problem.code, 'BOT_ERR_WORKFLOW_YAML_SYNTAX');
  assert.equal(problem.line, 3);
});

test('an invalid PUT answers 422 and adds no version', async () => {
  const created = await createWorkflow(t, 'Kept');
  const response = await t.request('PUT', `${WORKFLOWS_URL}/${created.id}`, { as: 'admin', body: { yaml: BROKEN } });
  assert.equal(response.status, 422);
  const current = await t.request('GET', `${WORKFLOWS_URL}/${created.id}`, { as: 'admin' });
  assert.equal(current.body.version, 1);
  assert.equal(current.body.yaml, created.yaml);
});

test('memory definition ids are checked against the database', async () => {
  const definitionId = await createMemoryDefinition(t, 'Checked Profile');
  const known = await t.request('POST', WORKFLOWS_URL, { as: 'admin', body: { name: 'Bound', yaml: workflowYaml({ definitionId }) } });
  assert.equal(known.status, 201, known.text);
  const unknown = await t.request('POST', WORKFLOWS_URL, { as: 'admin', body: { name: 'Unbound', yaml: workflowYaml({ definitionId: UNKNOWN_DEFINITION }) } });
  assert.equal(unknown.status, 422);
  assert.deepEqual(
    unknown.body.error.details.problems.map(({ path, line, code }: Record<string, unknown>) => ({ path, line, code })),
    [{ path: 'defs.profile.settings.definition_id', line: 6, code: 'BOT_ERR_WORKFLOW_MEMORY_DEFINITION_UNKNOWN' }],
  );
});

test('validate answers 200 with the problems for invalid YAML, and saves nothing', async () => {
  const response = await t.request('POST', `${WORKFLOWS_URL}/validate`, { as: 'viewer', body: { yaml: BROKEN } });
  assert.equal(response.status, 200);
  assert.equal(response.body.valid, false);
  assert.deepEqual(response.body.problems.map(({ path }: { path: string }) => path), ['defs.say.action', 'flow.0.do']);
  assert.deepEqual(Object.keys(response.body.problems[0]).sort(), ['code', 'column', 'line', 'message', 'path']);
  assert.equal((await t.request('GET', WORKFLOWS_URL, { as: 'viewer' })).body.items.some(({ yaml }: { yaml?: string }) => yaml === BROKEN), false);
});

test('validate answers valid with no problems for a valid workflow', async () => {
  const definitionId = await createMemoryDefinition(t, 'Validated Profile');
  const response = await t.request('POST', `${WORKFLOWS_URL}/validate`, { as: 'viewer', body: { yaml: workflowYaml({ definitionId }) } });
  assert.deepEqual(response.body, { valid: true, problems: [] });
});

test('a body without yaml is a request error (422 BOT_ERR_HTTP_VALIDATION), not a workflow problem', async () => {
  const response = await t.request('POST', `${WORKFLOWS_URL}/validate`, { as: 'viewer', body: { text: 'defs: {}' } });
  assert.equal(response.status, 422);
  assert.equal(response.body.error.code, 'BOT_ERR_HTTP_VALIDATION');
});
