import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createTestApp, type TestApp } from '../../support/test-app.ts';
import { createWorkflow, WORKFLOWS_URL, workflowYaml } from './workflow-requests.ts';

let t: TestApp;
let id: string;
before(async () => {
  t = await createTestApp();
  id = (await createWorkflow(t, 'Guarded')).id;
});
after(() => t.close());

test('a viewer reads and validates but cannot create or change', async () => {
  assert.equal((await t.request('GET', WORKFLOWS_URL, { as: 'viewer' })).status, 200);
  assert.equal((await t.request('GET', `${WORKFLOWS_URL}/${id}`, { as: 'viewer' })).status, 200);
  assert.equal((await t.request('GET', `${WORKFLOWS_URL}/${id}/versions`, { as: 'viewer' })).status, 200);
  assert.equal((await t.request('POST', `${WORKFLOWS_URL}/validate`, { as: 'viewer', body: { yaml: workflowYaml() } })).status, 200);
  const create = await t.request('POST', WORKFLOWS_URL, { as: 'viewer', body: { name: 'Nope', yaml: workflowYaml() } });
  assert.equal(create.status, 403);
  assert.equal(create.body.error.code, 'BOT_ERR_AUTH_FORBIDDEN');
  assert.equal((await t.request('PUT', `${WORKFLOWS_URL}/${id}`, { as: 'viewer', body: { yaml: workflowYaml() } })).status, 403);
});

test('an editor creates and changes but cannot delete', async () => {
  assert.equal((await t.request('POST', WORKFLOWS_URL, { as: 'editor', body: { name: 'Edited', yaml: workflowYaml() } })).status, 201);
  assert.equal((await t.request('PUT', `${WORKFLOWS_URL}/${id}`, { as: 'editor', body: { yaml: workflowYaml() } })).status, 200);
  const deleted = await t.request('DELETE', `${WORKFLOWS_URL}/${id}`, { as: 'editor' });
  assert.equal(deleted.status, 403);
  assert.equal((await t.request('GET', `${WORKFLOWS_URL}/${id}`, { as: 'viewer' })).status, 200);
});

test('without a token every workflow route answers 401', async () => {
  for (const [method, url] of [['GET', WORKFLOWS_URL], ['POST', `${WORKFLOWS_URL}/validate`], ['GET', `${WORKFLOWS_URL}/${id}`], ['DELETE', `${WORKFLOWS_URL}/${id}`]] as const) {
    assert.equal((await t.request(method, url, { body: method === 'POST' ? { yaml: '' } : undefined })).status, 401, `${method} ${url}`);
  }
});
