import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { createWorkflow, WORKFLOWS_URL, workflowYaml } from './routes/workflow-requests.ts';

let t: TestApp;
before(async () => {
  t = await createTestApp();
});
after(() => t.close());

/** Requests as an editor whose token subject is `author`: drafts are kept per subject. */
function as(author: string) {
  const authorization = `Bearer ${t.tokenFor('editor', author)}`;
  return {
    get: (id: string) => t.request('GET', `${WORKFLOWS_URL}/${id}/draft`, { authorization }),
    put: (id: string, body: unknown) => t.request('PUT', `${WORKFLOWS_URL}/${id}/draft`, { authorization, body }),
    delete: (id: string) => t.request('DELETE', `${WORKFLOWS_URL}/${id}/draft`, { authorization }),
    save: (id: string, yaml: string) => t.request('PUT', `${WORKFLOWS_URL}/${id}`, { authorization, body: { yaml } }),
  };
}

test('a draft is kept unvalidated per author, and one author never sees another’s', async () => {
  const { id } = await createWorkflow(t, 'Drafted per author');
  const alice = as('alice');
  const bob = as('bob');
  assert.deepEqual((await alice.get(id)).body, { draft: null });

  const written = await alice.put(id, { name: '', yaml: 'flow: [unclosed' });
  assert.equal(written.status, 200, written.text);
  assert.equal(written.body.yaml, 'flow: [unclosed');
  assert.ok(!Number.isNaN(Date.parse(written.body.savedAt)));
  assert.equal((await bob.put(id, { name: 'Bob’s', yaml: 'bob: 1' })).status, 200);

  assert.deepEqual((await alice.get(id)).body.draft, { name: '', yaml: 'flow: [unclosed', savedAt: written.body.savedAt });
  assert.equal((await bob.get(id)).body.draft.yaml, 'bob: 1');

  assert.equal((await alice.delete(id)).status, 204);
  assert.deepEqual((await alice.get(id)).body, { draft: null });
  assert.equal((await bob.get(id)).body.draft.yaml, 'bob: 1');
});

test('the author comes from the token: a body naming another author is refused', async () => {
  const { id } = await createWorkflow(t, 'Drafted with a forged author');
  const forged = await as('mallory').put(id, { name: 'x', yaml: 'x: 1', author: 'alice' });
  assert.equal(forged.status, 422, forged.text);
  assert.deepEqual((await as('alice').get(id)).body, { draft: null });
});

test('a draft is bounded like a save: the name at 200 characters, the body at the host’s limit', async () => {
  const { id } = await createWorkflow(t, 'Drafted too long');
  assert.equal((await as('alice').put(id, { name: 'n'.repeat(200), yaml: '' })).status, 200);
  assert.equal((await as('alice').put(id, { name: 'n'.repeat(201), yaml: '' })).status, 422);
  assert.equal((await as('alice').put(id, { name: 'x' })).status, 422);
  const huge = await as('alice').put(id, { name: 'x', yaml: '#'.repeat(2 * 1024 * 1024) });
  assert.equal(huge.status, 413, huge.text);
  assert.equal((await as('alice').get(id)).body.draft.name, 'n'.repeat(200));
});

test('saving the workflow drops the saver’s draft only', async () => {
  const { id } = await createWorkflow(t, 'Drafted then saved');
  await as('alice').put(id, { name: 'Drafted then saved', yaml: workflowYaml({ greeting: 'Hi' }) });
  await as('bob').put(id, { name: 'Drafted then saved', yaml: workflowYaml({ greeting: 'Yo' }) });
  const saved = await as('alice').save(id, workflowYaml({ greeting: 'Hi' }));
  assert.equal(saved.status, 200, saved.text);
  assert.deepEqual((await as('alice').get(id)).body, { draft: null });
  assert.equal((await as('bob').get(id)).body.draft.yaml, workflowYaml({ greeting: 'Yo' }));
});

test('a refused save keeps the draft', async () => {
  const { id } = await createWorkflow(t, 'Drafted, save refused');
  await as('alice').put(id, { name: 'Drafted, save refused', yaml: 'flow: [' });
  assert.equal((await as('alice').save(id, 'flow: [')).status, 422);
  assert.equal((await as('alice').get(id)).body.draft.yaml, 'flow: [');
});

test('deleting the workflow deletes its drafts', async () => {
  const { id } = await createWorkflow(t, 'Drafted then deleted');
  await as('alice').put(id, { name: 'x', yaml: 'x: 1' });
  assert.equal((await t.request('DELETE', `${WORKFLOWS_URL}/${id}`, { as: 'admin' })).status, 204);
  const rows = await t.database.db('workflow_drafts').where({ workflow_id: id });
  assert.deepEqual(rows, []);
  assert.equal((await as('alice').get(id)).status, 404);
  assert.equal((await as('alice').put(id, { name: 'x', yaml: 'x: 1' })).status, 404);
});

test('a draft needs workflow:update, and a missing workflow is not found', async () => {
  const { id } = await createWorkflow(t, 'Drafted by a viewer');
  const viewer = await t.request('PUT', `${WORKFLOWS_URL}/${id}/draft`, { as: 'viewer', body: { name: 'x', yaml: 'x' } });
  assert.equal(viewer.status, 403);
  assert.equal((await t.request('GET', `${WORKFLOWS_URL}/${id}/draft`, { as: 'viewer' })).status, 403);
  assert.equal((await t.request('GET', `${WORKFLOWS_URL}/${id}/draft`)).status, 401);
  for (const missing of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid']) {
    const response = await as('alice').put(missing, { name: 'x', yaml: 'x' });
    assert.equal(response.status, 404, missing);
    assert.equal(response.body.error.code, 'BOT_ERR_WORKFLOW_NOT_FOUND');
    assert.equal((await as('alice').delete(missing)).status, 404);
  }
});
