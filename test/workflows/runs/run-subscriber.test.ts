import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createTestApp, type TestApp } from '../../support/test-app.ts';

let t: TestApp;
let liveRunId: string;
let testRunId: string;
before(async () => {
  t = await createTestApp();
  const db = t.database.db;
  const [source] = await db('sources').insert({ ref: 'runs-sub', name: 'Shop', channel: 'sample', settings: {} }).returning('id');
  const [subscriber] = await db('subscribers')
    .insert({ source_id: source.id, foreign_id: 'u-1', first_name: 'Ada', last_name: 'Lovelace', data: {} })
    .returning('id');
  const [thread] = await db('threads').insert({ subscriber_id: subscriber.id, source_id: source.id }).returning('id');
  await db('conversation_messages').insert([
    { thread_id: thread.id, direction: 'in', text: 'my name is Ada', message: {} },
    { thread_id: thread.id, direction: 'out', text: 'Hello Ada!', message: {} },
  ]);
  const run = { workflow_id: '00000000-0000-4000-8000-000000000001', workflow_version: 1, status: 'succeeded', input: {} };
  [{ id: liveRunId }] = await db('workflow_runs')
    .insert({ ...run, mode: 'live', owner_id: subscriber.id, source_id: source.id, thread_id: thread.id })
    .returning('id');
  [{ id: testRunId }] = await db('workflow_runs').insert({ ...run, mode: 'test', owner_id: 'test:editor-user' }).returning('id');
});
after(() => t.close());

test("a live run is listed with its subscriber's name, a test run with none", async () => {
  const response = await t.request('GET', '/api/runs', { as: 'viewer' });
  assert.equal(response.status, 200, response.text);
  const names = new Map(response.body.items.map((run: { id: string; subscriberName: unknown }) => [run.id, run.subscriberName]));
  assert.deepEqual(names, new Map([[liveRunId, 'Ada Lovelace'], [testRunId, null]]));
});

test("a live run's detail shows its thread's messages, oldest first; a test run's shows none", async () => {
  const live = await t.request('GET', `/api/runs/${liveRunId}`, { as: 'viewer' });
  assert.equal(live.status, 200, live.text);
  assert.equal(live.body.subscriberName, 'Ada Lovelace');
  assert.deepEqual(live.body.conversation.map(({ direction, text }: { direction: string; text: string }) => [direction, text]), [
    ['in', 'my name is Ada'],
    ['out', 'Hello Ada!'],
  ]);
  const tested = await t.request('GET', `/api/runs/${testRunId}`, { as: 'viewer' });
  assert.deepEqual([tested.body.subscriberName, tested.body.conversation], [null, []]);
});
