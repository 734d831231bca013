import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, test } from 'node:test';
import { createTestApp, type TestApp } from '../../support/test-app.ts';
import { insertDefinition } from './insert-definition.ts';
import { untilStatementWaitsForLock } from './until-upsert-waits-for-lock.ts';

let app: TestApp;
let passingDefinitionId: string;
before(async () => {
  app = await createTestApp();
  await insertDefinition(app.services.db, { slug: 'profile' });
  await insertDefinition(app.services.db, { slug: 'visit', scope: 'thread' });
  await insertDefinition(app.services.db, { slug: 'brief', ttlSeconds: 60 });
  passingDefinitionId = await insertDefinition(app.services.db, { slug: 'passing' });
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

test('an edit racing an erasure never brings the erased record back', async () => {
  const [record] = await app.services.memoryRecords.write({ ownerId: 'edit-d' }, { profile: { name: 'Hedy' } });
  // The erasure has deleted the record but not committed when the edit arrives.
  const erasure = await app.services.db.transaction();
  try {
    assert.equal(await erasure('memory_records').where({ owner_id: 'edit-d' }).delete(), 1);
    const edit = app.request('PUT', `/api/memory-records/${record!.id}`, { as: 'editor', body: { value: { name: 'Hedy L.' } } });
    await untilStatementWaitsForLock(app.services.db, '%memory_records%');
    await erasure.commit();
    const edited = await edit;
    assert.equal(edited.status, 404, edited.text);
    assert.equal(edited.body.error.code, 'BOT_ERR_MEMORY_RECORD_NOT_FOUND');
  } finally {
    if (!erasure.isCompleted()) await erasure.rollback();
  }
  assert.deepEqual(await app.services.db('memory_records').where({ owner_id: 'edit-d' }), []);
});

test('an erasure arriving during an edit waits for it, then erases the edited record', async () => {
  const [record] = await app.services.memoryRecords.write({ ownerId: 'edit-e' }, { profile: { name: 'Karen' } });
  // Held by another writer (an operator's transaction, say), so the edit waits with its definitions held.
  const holder = await app.services.db.transaction();
  let erased: Promise<{ status: number }> | undefined;
  try {
    await holder('memory_records').where({ id: record!.id }).forUpdate().first('id');
    const edit = app.request('PUT', `/api/memory-records/${record!.id}`, { as: 'editor', body: { value: { name: 'Karen S.' } } });
    await untilStatementWaitsForLock(app.services.db, '%for update%');
    erased = app.request('DELETE', '/api/subscribers/edit-e/memory', { as: 'admin' });
    await untilStatementWaitsForLock(app.services.db, '%delete from "memory_records"%');
    await holder.commit();
    assert.equal((await edit).status, 200);
  } finally {
    if (!holder.isCompleted()) await holder.rollback();
  }
  assert.equal((await erased!).status, 200);
  assert.deepEqual(await app.services.db('memory_records').where({ owner_id: 'edit-e' }), []);
});

test('a record that expires while the edit waits for its lock is not found, and not written again', async () => {
  const [record] = await app.services.memoryRecords.write({ ownerId: 'edit-f' }, { brief: { name: 'Ada' } });
  const holder = await app.services.db.transaction();
  let edit: ReturnType<TestApp['request']> | undefined;
  try {
    await holder('memory_records').where({ id: record!.id }).forUpdate().first('id');
    edit = app.request('PUT', `/api/memory-records/${record!.id}`, { as: 'editor', body: { value: { name: 'Ada L.' } } });
    await untilStatementWaitsForLock(app.services.db, '%memory_records%for update%');
    app.clock.advance(120_000);
    await holder.commit();
  } finally {
    if (!holder.isCompleted()) await holder.rollback();
  }
  const edited = await edit!;
  assert.equal(edited.status, 404, edited.text);
  assert.deepEqual((await app.services.db('memory_records').where({ id: record!.id }).first('value'))?.value, { name: 'Ada' });
});

test("an edit racing the deletion of the record's definition is not found", async () => {
  const [record] = await app.services.memoryRecords.write({ ownerId: 'edit-g' }, { passing: { name: 'Bo' } });
  const deletion = await app.services.db.transaction();
  let edit: ReturnType<TestApp['request']> | undefined;
  try {
    await deletion('memory_definitions').where({ id: passingDefinitionId }).delete();
    edit = app.request('PUT', `/api/memory-records/${record!.id}`, { as: 'editor', body: { value: { name: 'Bo B.' } } });
    await untilStatementWaitsForLock(app.services.db, '%memory_definitions%for share%');
    await deletion.commit();
  } finally {
    if (!deletion.isCompleted()) await deletion.rollback();
  }
  const edited = await edit!;
  assert.equal(edited.status, 404, edited.text);
  assert.equal(edited.body.error.code, 'BOT_ERR_MEMORY_RECORD_NOT_FOUND');
});
