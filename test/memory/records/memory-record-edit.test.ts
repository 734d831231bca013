import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, test } from 'node:test';
import { createTestApp, type TestApp } from '../../support/test-app.ts';
import { insertDefinition } from './insert-definition.ts';

let app: TestApp;
before(async () => {
  app = await createTestApp();
  await insertDefinition(app.services.db, { slug: 'profile' });
  await insertDefinition(app.services.db, { slug: 'visit', scope: 'thread' });
});
after(() => app.close());

test("an edit replaces a record's value in place, keeping its identity and scope", async () => {
  const [record] = await app.services.memoryRecords.write({ ownerId: 'edit-a', threadId: 't-edit' }, { visit: { name: 'Ada' } });
  const edited = await app.request('PUT', `/api/memory-records/${record!.id}`, { as: 'editor', body: { value: { name: 'Ada L.', age: 36 } } });
  assert.equal(edited.status, 200, edited.text);
  assert.deepEqual([edited.body.id, edited.body.threadId, edited.body.value], [record!.id, 't-edit', { name: 'Ada L.', age: 36 }]);
  const read = await app.request('GET', `/api/memory-records/${record!.id}`, { as: 'viewer' });
  assert.deepEqual(read.body.value, { name: 'Ada L.', age: 36 });
  assert.equal((await app.services.db('memory_records').where({ owner_id: 'edit-a' })).length, 1);
});

test("an edit is checked against the definition's JSON Schema and refused whole", async () => {
  const [record] = await app.services.memoryRecords.write({ ownerId: 'edit-b' }, { profile: { name: 'Grace' } });
  const refused = await app.request('PUT', `/api/memory-records/${record!.id}`, { as: 'admin', body: { value: { name: 'Grace', age: 'old' } } });
  assert.equal(refused.status, 422);
  assert.equal(refused.body.error.code, 'BOT_ERR_MEMORY_VALUE_INVALID');
  const read = await app.request('GET', `/api/memory-records/${record!.id}`, { as: 'viewer' });
  assert.deepEqual(read.body.value, { name: 'Grace' });
});

test('editing takes memory_record:update, and an unknown record is not found', async () => {
  const [record] = await app.services.memoryRecords.write({ ownerId: 'edit-c' }, { profile: { name: 'Linus' } });
  assert.equal((await app.request('PUT', `/api/memory-records/${record!.id}`, { as: 'viewer', body: { value: { name: 'x' } } })).status, 403);
  const missing = await app.request('PUT', `/api/memory-records/${randomUUID()}`, { as: 'admin', body: { value: { name: 'x' } } });
  assert.equal(missing.status, 404);
  assert.equal(missing.body.error.code, 'BOT_ERR_MEMORY_RECORD_NOT_FOUND');
});
