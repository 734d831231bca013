import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { subscriberDisplayName } from '../../host/conversations/subscriber-display-name.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';

const ID = '3f2a9c1e-0000-4000-8000-000000000000';

test("a subscriber is named by the platform's name, else a remembered name, else by channel and id", () => {
  const base = { id: ID, firstName: '', lastName: '', storedName: null, channel: 'web' };
  assert.equal(subscriberDisplayName({ ...base, firstName: 'Ada', lastName: 'Lovelace', storedName: 'Countess' }), 'Ada Lovelace');
  assert.equal(subscriberDisplayName({ ...base, storedName: ' Ada ' }), 'Ada');
  assert.equal(subscriberDisplayName(base), 'Web visitor 3f2a');
  assert.equal(subscriberDisplayName({ ...base, channel: 'telegram' }), 'Subscriber 3f2a');
});

let t: TestApp;
let visitor: string;
let named: string;
before(async () => {
  t = await createTestApp();
  const db = t.database.db;
  const [source] = await db('sources').insert({ ref: 'web-names', name: 'Site chat', channel: 'web', settings: {} }).returning('id');
  [{ id: visitor }] = await db('subscribers').insert({ source_id: source.id, foreign_id: 'session-1', data: { channel: { name: 'web' } } }).returning('id');
  [{ id: named }] = await db('subscribers').insert({ source_id: source.id, foreign_id: 'session-2', data: { channel: { name: 'web' } } }).returning('id');
  const [definition] = await db('memory_definitions').insert({ name: 'Visitor', slug: 'visitor', scope: 'global', schema: '{}' }).returning('id');
  await db('memory_records').insert({ definition_id: definition.id, owner_id: named, scope_key: '', value: { name: 'Grace' } });
  const run = { workflow_id: '00000000-0000-4000-8000-000000000001', workflow_version: 1, mode: 'live', status: 'succeeded', input: {} };
  await db('workflow_runs').insert([{ ...run, owner_id: visitor }, { ...run, owner_id: named }]);
});
after(() => t.close());

test('the runs API names web visitors "Web visitor <4 hex>", or by the name a workflow remembered', async () => {
  const runs = await t.request('GET', '/api/runs', { as: 'viewer' });
  const names = new Map(runs.body.items.map((run: { ownerId: string; subscriberName: string }) => [run.ownerId, run.subscriberName]));
  assert.equal(names.get(visitor), `Web visitor ${visitor.slice(0, 4)}`);
  assert.equal(names.get(named), 'Grace');
  const detail = await t.request('GET', `/api/runs/${runs.body.items[0].id}`, { as: 'viewer' });
  assert.equal(detail.body.subscriberName, names.get(detail.body.ownerId));
});

test('the subscribers API gives the same display name, and finds a visitor by it', async () => {
  const read = await t.request('GET', `/api/subscribers/${visitor}`, { as: 'viewer' });
  assert.equal(read.body.displayName, `Web visitor ${visitor.slice(0, 4)}`);
  assert.equal(read.body.channel, 'web');
  const byDigits = await t.request('GET', `/api/subscribers?q=${encodeURIComponent(`Web visitor ${visitor.slice(0, 6)}`)}`, { as: 'viewer' });
  assert.deepEqual(byDigits.body.items.map((item: { id: string }) => item.id), [visitor]);
  const byRemembered = await t.request('GET', '/api/subscribers?q=grace', { as: 'viewer' });
  assert.deepEqual(byRemembered.body.items.map((item: { displayName: string }) => item.displayName), ['Grace']);
});
