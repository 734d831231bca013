import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import type { ListedMemoryRecord, MemoryRecord } from '../../../host/memory/records/memory-record.ts';
import { createTestApp, type TestApp } from '../../support/test-app.ts';
import { insertDefinition } from './insert-definition.ts';

let app: TestApp;
let profileId: string;

before(async () => {
  app = await createTestApp();
  profileId = await insertDefinition(app.services.db, { slug: 'profile' });
  await insertDefinition(app.services.db, { slug: 'visit', scope: 'thread', ttlSeconds: 60 });
});
after(() => app.close());

const write = (ownerId: string, values: Record<string, unknown>, threadId?: string) =>
  app.services.memoryRecords.write({ ownerId, threadId }, values);

describe('GET /api/memory-records', () => {
  test('lists live records with their slug, filtered by owner and definition, with a total', async () => {
    await write('list-a', { profile: { name: 'A' }, visit: { age: 1 } }, 't1');
    await write('list-b', { profile: { name: 'B' } });

    const byOwner = await app.request('GET', '/api/memory-records?ownerId=list-a', { as: 'viewer' });
    assert.equal(byOwner.status, 200);
    assert.equal(byOwner.body.total, 2);
    const visit = byOwner.body.items.find((item: MemoryRecord) => item.slug === 'visit');
    assert.equal(visit.threadId, 't1');
    assert.deepEqual(visit.value, { age: 1 });

    const byDefinition = await app.request('GET', `/api/memory-records?definitionId=${profileId}&ownerId=list-b`, { as: 'viewer' });
    assert.deepEqual(
      byDefinition.body.items.map((item: MemoryRecord) => [item.ownerId, item.slug]),
      [['list-b', 'profile']],
    );
  });

  test('pages with limit and offset while the total counts every match', async () => {
    await write('page-1', { profile: { name: '1' } });
    await write('page-2', { profile: { name: '2' } });
    await write('page-3', { profile: { name: '3' } });

    const page = await app.request('GET', `/api/memory-records?definitionId=${profileId}&limit=2&offset=1`, { as: 'admin' });
    assert.equal(page.body.items.length, 2);
    assert.ok(page.body.total >= 3);
  });

  test('q searches the slug and the owner; sort orders by a field in either direction', async () => {
    await write('sort-x', { profile: { name: 'X' }, visit: { age: 2 } }, 't-sort');
    const found = await app.request('GET', '/api/memory-records?q=SORT-X&sort=slug', { as: 'viewer' });
    assert.equal(found.status, 200);
    assert.deepEqual(found.body.items.map((item: MemoryRecord) => item.slug), ['profile', 'visit']);
    const reversed = await app.request('GET', '/api/memory-records?q=sort-x&sort=-slug', { as: 'viewer' });
    assert.deepEqual(reversed.body.items.map((item: MemoryRecord) => item.slug), ['visit', 'profile']);
    const bySlug = await app.request('GET', '/api/memory-records?q=visi', { as: 'viewer' });
    assert.ok(bySlug.body.items.length > 0 && bySlug.body.items.every((item: MemoryRecord) => item.slug === 'visit'));
    assert.equal((await app.request('GET', '/api/memory-records?sort=value', { as: 'viewer' })).status, 422);
  });

  test('marks each record valid or not against the current schema, with the reasons', async () => {
    const id = await insertDefinition(app.services.db, { slug: 'contact' });
    await write('checked', { contact: { name: 'C', age: 40 }, profile: { name: 'P' } });
    const onlyName = { type: 'object', properties: { name: { type: 'string', description: 'Name' } }, additionalProperties: false };
    await app.services.db('memory_definitions').where({ id }).update({ schema: onlyName, updated_at: app.services.db.raw(`updated_at + interval '1 millisecond'`) });

    const page = await app.request('GET', '/api/memory-records?ownerId=checked', { as: 'viewer' });

    const items: ListedMemoryRecord[] = page.body.items;
    const contact = items.find((item) => item.slug === 'contact')!;
    assert.equal(contact.valid, false);
    assert.deepEqual(contact.errors, [{ path: '/age', message: 'is not an allowed property' }]);
    const profile = items.find((item) => item.slug === 'profile')!;
    assert.equal(profile.valid, true);
    assert.equal('errors' in profile, false);
  });

  test('never lists expired records', async () => {
    await write('expiring', { visit: { age: 1 } }, 't');
    app.clock.advance(60_000);

    const page = await app.request('GET', '/api/memory-records?ownerId=expiring', { as: 'admin' });
    assert.deepEqual(page.body, { items: [], total: 0 });
  });

  for (const query of ['definitionId=not-a-uuid', 'limit=0', 'limit=201', 'offset=-1']) {
    test(`rejects ${query} with 422`, async () => {
      const response = await app.request('GET', `/api/memory-records?${query}`, { as: 'admin' });
      assert.equal(response.status, 422);
      assert.equal(response.body.error.code, 'BOT_ERR_HTTP_VALIDATION');
    });
  }

  test('needs a token', async () => {
    assert.equal((await app.request('GET', '/api/memory-records')).status, 401);
  });
});

describe('DELETE /api/memory-records/:id', () => {
  test('deletes a record with 204, then answers 404 for it', async () => {
    const [record] = await write('delete-me', { profile: { name: 'x' } });

    const deleted = await app.request('DELETE', `/api/memory-records/${record!.id}`, { as: 'admin' });
    assert.equal(deleted.status, 204);
    assert.equal(deleted.text, '');
    const again = await app.request('DELETE', `/api/memory-records/${record!.id}`, { as: 'admin' });
    assert.equal(again.status, 404);
    assert.equal(again.body.error.code, 'BOT_ERR_MEMORY_RECORD_NOT_FOUND');
  });

  test('answers 404 for an unknown id and 422 for a malformed one', async () => {
    assert.equal((await app.request('DELETE', `/api/memory-records/${randomUUID()}`, { as: 'admin' })).status, 404);
    assert.equal((await app.request('DELETE', '/api/memory-records/123', { as: 'admin' })).status, 422);
  });

  test('is refused without a token, and to viewers and editors', async () => {
    const [record] = await write('protected', { profile: { name: 'x' } });
    const url = `/api/memory-records/${record!.id}`;

    assert.equal((await app.request('DELETE', url)).status, 401);
    assert.equal((await app.request('DELETE', url, { as: 'viewer' })).status, 403);
    assert.equal((await app.request('DELETE', url, { as: 'editor' })).status, 403);
    assert.equal((await app.request('GET', '/api/memory-records?ownerId=protected', { as: 'viewer' })).body.total, 1);
  });
});

describe('DELETE /api/subscribers/:id/memory', () => {
  test("erases all of one subscriber's memory and reports how many records went", async () => {
    await write('forget-me', { profile: { name: 'x' }, visit: { age: 1 } }, 't');
    await write('keep-me', { profile: { name: 'y' } });

    const response = await app.request('DELETE', '/api/subscribers/forget-me/memory', { as: 'admin' });
    assert.equal(response.status, 200);
    assert.deepEqual(response.body, { deleted: 2 });
    assert.equal((await app.request('GET', '/api/memory-records?ownerId=forget-me', { as: 'admin' })).body.total, 0);
    assert.equal((await app.request('GET', '/api/memory-records?ownerId=keep-me', { as: 'admin' })).body.total, 1);
  });

  test('answers { deleted: 0 } for a subscriber without memory', async () => {
    const response = await app.request('DELETE', '/api/subscribers/nobody/memory', { as: 'admin' });
    assert.deepEqual(response.body, { deleted: 0 });
  });

  test('is refused without a token and to viewers', async () => {
    assert.equal((await app.request('DELETE', '/api/subscribers/x/memory')).status, 401);
    assert.equal((await app.request('DELETE', '/api/subscribers/x/memory', { as: 'viewer' })).status, 403);
  });
});
