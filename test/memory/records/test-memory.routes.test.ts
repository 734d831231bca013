import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { bindDefinitionPlaceholders } from '../../../host/workflows/document/bind-definition-placeholders.ts';
import { createTestApp, type TestApp } from '../../support/test-app.ts';
import { insertDefinition } from './insert-definition.ts';

// The test subscriber's memory: listed and reset by whoever may run tests, never a real owner's.
const GREETING = readFileSync(new URL('../../../workflows/examples/greeting.yaml', import.meta.url), 'utf8');

let t: TestApp;
let workflowId: string;
before(async () => {
  t = await createTestApp();
  const profileId = await insertDefinition(t.services.db, { slug: 'profile' });
  const created = await t.request('POST', '/api/workflows', { as: 'admin', body: { name: 'Greeting', yaml: bindDefinitionPlaceholders(GREETING, new Map([['profile', profileId]])) } });
  assert.equal(created.status, 201, created.text);
  workflowId = created.body.id;
});
after(() => t.close());

const testRun = (text: string, ownerId?: string) =>
  t.request('POST', `/api/workflows/${workflowId}/runs`, { as: 'editor', body: { input: { text }, ...(ownerId ? { ownerId } : {}) } });
const testMemory = (method: 'GET' | 'DELETE', query = '', as = 'editor') => t.request(method, `/api/test-memory${query}`, { as });
const slugsAndValues = (body: { items: { ownerId: string; slug: string; value: unknown }[] }) => body.items.map(({ ownerId, slug, value }) => [ownerId, slug, value]);

test('lists what test runs remembered for a test owner, and a reset makes the next run start afresh', async () => {
  await testRun('my name is Ada', 'ada');
  const listed = await testMemory('GET', '?ownerId=ada');
  assert.equal(listed.status, 200, listed.text);
  assert.deepEqual(slugsAndValues(listed.body), [['test:ada', 'profile', { name: 'Ada' }]]);
  assert.equal(listed.body.items[0].valid, true);

  const reset = await testMemory('DELETE', '?ownerId=ada');
  assert.equal(reset.status, 200, reset.text);
  assert.deepEqual(reset.body, { deleted: 1 });
  assert.deepEqual((await testMemory('GET', '?ownerId=ada')).body, { items: [], total: 0 });
  const next = await testRun('hi', 'ada');
  assert.deepEqual(next.body.messages, [{ type: 'text', data: { text: 'Hello! What is your name?' } }], 'the name is forgotten');
});

test("without ownerId, the caller's own test owner (its token subject), as a test run uses", async () => {
  await testRun('my name is Edi');
  const listed = await testMemory('GET');
  assert.deepEqual(slugsAndValues(listed.body), [['test:editor-user', 'profile', { name: 'Edi' }]]);
  assert.deepEqual((await testMemory('DELETE')).body, { deleted: 1 });
});

test("never lists or erases a real subscriber's memory, whatever ownerId names", async () => {
  const subscriberId = randomUUID();
  await t.services.memoryRecords.write({ ownerId: subscriberId }, { profile: { name: 'Real' } });
  await testRun('my name is Mallory', subscriberId);
  for (const ownerId of [subscriberId, `../${subscriberId}`, '%']) {
    const listed = await testMemory('GET', `?ownerId=${encodeURIComponent(ownerId)}`);
    assert.ok(listed.body.items.every((item: { ownerId: string }) => item.ownerId === `test:${ownerId}`), JSON.stringify(listed.body));
    await testMemory('DELETE', `?ownerId=${encodeURIComponent(ownerId)}`);
  }
  const real = await t.database.db('memory_records').where({ owner_id: subscriberId }).select('value');
  assert.deepEqual(real, [{ value: { name: 'Real' } }], 'untouched');
  assert.deepEqual(await t.database.db('memory_records').where({ owner_id: `test:${subscriberId}` }).select('value'), [], 'its test double was reset');
});

test('test memory needs run:create: a viewer may neither list nor reset it', async () => {
  assert.equal((await testMemory('GET', '', 'viewer')).status, 403);
  assert.equal((await testMemory('DELETE', '', 'viewer')).status, 403);
  assert.equal((await testMemory('GET', `?ownerId=${'x'.repeat(201)}`)).status, 422);
});

test('the memory-records list and the subscribers list never show test owners', async () => {
  await testRun('my name is Tess', 'tess');
  await t.services.memoryRecords.write({ ownerId: 'subscriber-listed' }, { profile: { name: 'Listed' } });
  const all = await t.request('GET', '/api/memory-records?limit=200', { as: 'viewer' });
  const owners = all.body.items.map((item: { ownerId: string }) => item.ownerId);
  assert.ok(owners.includes('subscriber-listed'));
  assert.ok(!owners.some((owner: string) => owner.startsWith('test:')), JSON.stringify(owners));
  assert.equal(all.body.total, owners.length, 'the total counts no test owner either');
  for (const query of ['?q=tess', '?ownerId=test:tess', '?q=test:']) {
    assert.deepEqual((await t.request('GET', `/api/memory-records${query}`, { as: 'viewer' })).body, { items: [], total: 0 }, query);
  }
  assert.deepEqual((await t.request('GET', '/api/subscribers?q=tess', { as: 'viewer' })).body, { items: [], total: 0 });
  assert.equal((await t.request('GET', '/api/subscribers', { as: 'viewer' })).body.total, 0, 'a test run makes no subscriber');
});
