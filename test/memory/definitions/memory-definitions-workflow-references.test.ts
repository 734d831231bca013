import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createTestApp, type TestApp } from '../../support/test-app.ts';
import { createDefinition, DEFINITIONS_URL } from './definition-requests.ts';

let t: TestApp;
before(async () => (t = await createTestApp()));
after(() => t.close());

/** A valid workflow whose `kind: memory` def binds the definition, or binds nothing. */
function workflowYaml(definitionId?: string): string {
  const memory = definitionId ? `  profile:\n    kind: memory\n    settings:\n      definition_id: ${definitionId}\n` : '';
  return `defs:\n${memory}  say:\n    kind: task\n    action: send_text_message\n    inputs:\n      text: Hello\nflow:\n  - do: say\n`;
}

async function saveWorkflow(name: string, definitionId?: string, id?: string): Promise<string> {
  const body = { name, yaml: workflowYaml(definitionId) };
  const response = id
    ? await t.request('PUT', `/api/workflows/${id}`, { as: 'admin', body })
    : await t.request('POST', '/api/workflows', { as: 'admin', body });
  assert.equal(response.status, id ? 200 : 201, response.text);
  return response.body.id;
}

test('the slug is locked while the current version of a workflow binds the definition, and the reason names it', async () => {
  const definition = await createDefinition(t, { name: 'Bound Profile' });
  await saveWorkflow('Greeter', definition.id);
  const response = await t.request('PATCH', `${DEFINITIONS_URL}/${definition.id}`, { as: 'admin', body: { slug: 'renamed_profile' } });
  assert.equal(response.status, 409);
  assert.equal(response.body.error.code, 'BOT_ERR_MEMORY_DEFINITION_SLUG_LOCKED');
  assert.equal(response.body.error.message, 'The slug cannot change: the workflow "Greeter" binds this definition');
  const other = await t.request('PATCH', `${DEFINITIONS_URL}/${definition.id}`, { as: 'admin', body: { name: 'Bound Profile 2', ttlSeconds: 60 } });
  assert.equal(other.status, 200, 'name and TTL may still change');
});

test('a version that drops the binding releases the slug: older versions are history', async () => {
  const definition = await createDefinition(t, { name: 'Released Profile' });
  const id = await saveWorkflow('Forgetful', definition.id);
  await saveWorkflow('Forgetful', undefined, id);
  const response = await t.request('PATCH', `${DEFINITIONS_URL}/${definition.id}`, { as: 'admin', body: { slug: 'released_again' } });
  assert.equal(response.status, 200, response.text);
  assert.equal(response.body.slug, 'released_again');
});

test('deleting a definition bound by workflows answers 409 naming them, and deletes nothing', async () => {
  const definition = await createDefinition(t, { name: 'Shared Profile' });
  await saveWorkflow('Zeta bot', definition.id);
  await saveWorkflow('alpha bot', definition.id);
  await saveWorkflow('Unrelated bot');
  const response = await t.request('DELETE', `${DEFINITIONS_URL}/${definition.id}`, { as: 'admin' });
  assert.equal(response.status, 409);
  assert.equal(response.body.error.code, 'BOT_ERR_MEMORY_DEFINITION_IN_USE');
  assert.deepEqual(response.body.error.details, { workflows: ['alpha bot', 'Zeta bot'] });
  assert.equal((await t.request('GET', `${DEFINITIONS_URL}/${definition.id}`, { as: 'admin' })).status, 200);
});

test('once no current version binds it, the definition can be deleted', async () => {
  const definition = await createDefinition(t, { name: 'Freed Profile' });
  const id = await saveWorkflow('Freed bot', definition.id);
  assert.equal((await t.request('DELETE', `${DEFINITIONS_URL}/${definition.id}`, { as: 'admin' })).status, 409);
  await t.request('DELETE', `/api/workflows/${id}`, { as: 'admin' });
  assert.equal((await t.request('DELETE', `${DEFINITIONS_URL}/${definition.id}`, { as: 'admin' })).status, 204);
});
