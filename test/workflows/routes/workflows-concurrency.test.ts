import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Knex } from 'knex';
import { after, before, test } from 'node:test';
import { createTestApp, type TestApp, type TestResponse } from '../../support/test-app.ts';
import { createMemoryDefinition, createWorkflow, WORKFLOWS_URL, workflowYaml } from './workflow-requests.ts';

let t: TestApp;
before(async () => (t = await createTestApp()));
after(() => t.close());

test('two concurrent PUTs get consecutive versions, never the same one', async () => {
  const created = await createWorkflow(t, 'Raced');
  const responses = await Promise.all(
    ['A', 'B'].map((greeting) => t.request('PUT', `${WORKFLOWS_URL}/${created.id}`, { as: 'editor', body: { yaml: workflowYaml({ greeting }) } })),
  );
  assert.deepEqual(responses.map((response) => response.status), [200, 200], responses.map((response) => response.text).join('\n'));
  assert.deepEqual(responses.map((response) => response.body.version).sort(), [2, 3]);
  const versions = await t.request('GET', `${WORKFLOWS_URL}/${created.id}/versions`, { as: 'viewer' });
  assert.deepEqual(versions.body.items.map(({ version }: { version: number }) => version), [3, 2, 1]);
  const current = await t.request('GET', `${WORKFLOWS_URL}/${created.id}`, { as: 'viewer' });
  const last = responses.find((response) => response.body.version === 3)!;
  assert.equal(current.body.yaml, last.body.yaml, 'the current version is the one saved last');
});

test('of eight concurrent PUTs, each gets its own version number', async () => {
  const created = await createWorkflow(t, 'Stampede');
  const responses = await Promise.all(
    Array.from({ length: 8 }, (_, index) =>
      t.request('PUT', `${WORKFLOWS_URL}/${created.id}`, { as: 'editor', body: { yaml: workflowYaml({ greeting: `Hi ${index}` }) } }),
    ),
  );
  assert.deepEqual(responses.map((response) => response.body.version).sort((a, b) => a - b), [2, 3, 4, 5, 6, 7, 8, 9]);
});

test('of two concurrent creates with one name, one answers 201 and the other 409', async () => {
  const responses = await Promise.all(
    ['Twin', 'twin'].map((name) => t.request('POST', WORKFLOWS_URL, { as: 'editor', body: { name, yaml: workflowYaml() } })),
  );
  assert.deepEqual(responses.map((response) => response.status).sort(), [201, 409]);
});

test('a save waits for a definition being deleted, then reports it unknown instead of binding a deleted definition', async () => {
  const definitionId = await createMemoryDefinition(t, 'Vanishing');
  const db = t.database.db;
  let save!: Promise<TestResponse>;
  await db.transaction(async (deleting) => {
    // What the definition store's delete holds between its reference check and its delete.
    await deleting('memory_definitions').where({ id: definitionId }).forUpdate().first();
    save = t.request('POST', WORKFLOWS_URL, { as: 'admin', body: { name: 'Late binder', yaml: workflowYaml({ definitionId }) } });
    await untilSomeoneWaitsForALock(db);
    await deleting('memory_definitions').where({ id: definitionId }).delete();
  });
  const response = await save;
  assert.equal(response.status, 422, response.text);
  assert.equal(response.body.error.details.problems[0].code, 'BOT_ERR_WORKFLOW_MEMORY_DEFINITION_UNKNOWN');
});

/** Resolves once a statement of this test's database waits for a row lock; fails after a second. */
async function untilSomeoneWaitsForALock(db: Knex): Promise<void> {
  const deadline = Date.now() + 1_000;
  while (Date.now() < deadline) {
    const waiting = await db('pg_stat_activity').where({ datname: db.raw('current_database()'), wait_event_type: 'Lock' }).first('pid');
    if (waiting) return;
    await sleep(5);
  }
  throw new Error('no statement waited for a lock within a second');
}
