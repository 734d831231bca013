import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createTestApp, type TestApp } from '../../support/test-app.ts';
import { countRecords, createDefinition, DEFINITIONS_URL, insertRecord, PROFILE_SCHEMA } from './definition-requests.ts';

let t: TestApp;
before(async () => (t = await createTestApp()));
after(() => t.close());

const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

test('creating without a slug generates it from the name and answers 201 with the definition', async () => {
  const created = await createDefinition(t, { name: 'Shipping Address', ttlSeconds: 3600 });
  assert.match(created.id, /^[0-9a-f-]{36}$/);
  assert.equal(created.slug, 'shipping_address');
  assert.equal(created.scope, 'global');
  assert.equal(created.ttlSeconds, 3600);
  assert.equal(created.createdAt, t.clock.now().toISOString());
  assert.equal(created.updatedAt, created.createdAt);
});

test('a created definition reads back with additionalProperties false added to its schema', async () => {
  const created = await createDefinition(t, { name: 'Read Back', scope: 'thread' });
  const response = await t.request('GET', `${DEFINITIONS_URL}/${created.id}`, { as: 'viewer' });
  assert.equal(response.status, 200);
  assert.deepEqual(response.body, created);
  assert.deepEqual(response.body.schema, { ...PROFILE_SCHEMA, additionalProperties: false });
  assert.equal(response.body.ttlSeconds, null, 'no TTL means permanent');
});

test('an explicit valid slug is kept as given', async () => {
  const created = await createDefinition(t, { name: 'Explicit Slug', slug: 'my_own_key_2' });
  assert.equal(created.slug, 'my_own_key_2');
});

test('updating changes the given fields only and moves updatedAt', async () => {
  const created = await createDefinition(t, { name: 'Before Update', ttlSeconds: 60 });
  t.clock.advance(5_000);
  const response = await t.request('PATCH', `${DEFINITIONS_URL}/${created.id}`, {
    as: 'editor',
    body: { name: 'After Update', scope: 'workflow', ttlSeconds: 120 },
  });
  assert.equal(response.status, 200, response.text);
  assert.equal(response.body.name, 'After Update');
  assert.equal(response.body.slug, 'before_update', 'a rename keeps the slug workflows use');
  assert.equal(response.body.scope, 'workflow');
  assert.equal(response.body.ttlSeconds, 120);
  assert.equal(response.body.createdAt, created.createdAt);
  assert.equal(response.body.updatedAt, t.clock.now().toISOString());
});

test('updating ttlSeconds to null makes the memory permanent, and an absent ttlSeconds leaves it alone', async () => {
  const created = await createDefinition(t, { name: 'Ttl Change', ttlSeconds: 60 });
  const untouched = await t.request('PATCH', `${DEFINITIONS_URL}/${created.id}`, { as: 'admin', body: { name: 'Ttl Change 2' } });
  assert.equal(untouched.body.ttlSeconds, 60);
  const permanent = await t.request('PATCH', `${DEFINITIONS_URL}/${created.id}`, { as: 'admin', body: { ttlSeconds: null } });
  assert.equal(permanent.status, 200);
  assert.equal(permanent.body.ttlSeconds, null);
});

test('updatedAt moves on every update even when the clock has not', async () => {
  const created = await createDefinition(t, { name: 'Version Bump' });
  const first = await t.request('PATCH', `${DEFINITIONS_URL}/${created.id}`, { as: 'admin', body: { name: 'Version Bump 1' } });
  const second = await t.request('PATCH', `${DEFINITIONS_URL}/${created.id}`, { as: 'admin', body: { name: 'Version Bump 2' } });
  assert.ok(first.body.updatedAt > created.updatedAt);
  assert.ok(second.body.updatedAt > first.body.updatedAt);
});

test('an update of the schema is normalised like a create', async () => {
  const created = await createDefinition(t, { name: 'Schema Change' });
  const schema = { type: 'object', properties: { plan: { type: 'string', description: 'Subscription plan' } } };
  const response = await t.request('PATCH', `${DEFINITIONS_URL}/${created.id}`, { as: 'admin', body: { schema } });
  assert.equal(response.status, 200, response.text);
  assert.deepEqual(response.body.schema, { ...schema, additionalProperties: false });
});

test('deleting answers 204, removes the records, and the definition is gone', async () => {
  const created = await createDefinition(t, { name: 'To Delete' });
  await insertRecord(t.database.db, created.id, 'subscriber-1');
  await insertRecord(t.database.db, created.id, 'subscriber-2');
  const response = await t.request('DELETE', `${DEFINITIONS_URL}/${created.id}`, { as: 'admin' });
  assert.equal(response.status, 204);
  assert.equal(response.text, '');
  assert.equal(await countRecords(t.database.db, created.id), 0);
  assert.equal((await t.request('GET', `${DEFINITIONS_URL}/${created.id}`, { as: 'admin' })).status, 404);
});

for (const method of ['GET', 'PATCH', 'DELETE'] as const) {
  for (const id of [UNKNOWN_ID, 'not-a-uuid']) {
    test(`${method} of ${id === UNKNOWN_ID ? 'an unknown id' : 'a non-uuid id'} answers 404`, async () => {
      const body = method === 'PATCH' ? { name: 'Nobody' } : undefined;
      const response = await t.request(method, `${DEFINITIONS_URL}/${id}`, { as: 'admin', body });
      assert.equal(response.status, 404);
      assert.equal(response.body.error.code, 'BOT_ERR_MEMORY_DEFINITION_NOT_FOUND');
    });
  }
}

test('the slug can change while no records exist', async () => {
  const created = await createDefinition(t, { name: 'Free Slug' });
  const response = await t.request('PATCH', `${DEFINITIONS_URL}/${created.id}`, { as: 'admin', body: { slug: 'free_slug_2' } });
  assert.equal(response.status, 200, response.text);
  assert.equal(response.body.slug, 'free_slug_2');
});

test('the slug is locked once a record exists, while name, TTL and schema may still change', async () => {
  const created = await createDefinition(t, { name: 'Locked Slug' });
  await insertRecord(t.database.db, created.id);
  const url = `${DEFINITIONS_URL}/${created.id}`;
  const refused = await t.request('PATCH', url, { as: 'admin', body: { slug: 'another_slug' } });
  assert.equal(refused.status, 409);
  assert.equal(refused.body.error.code, 'BOT_ERR_MEMORY_DEFINITION_SLUG_LOCKED');
  assert.equal(refused.body.error.details.field, 'slug');
  const sameSlug = await t.request('PATCH', url, { as: 'admin', body: { slug: 'locked_slug', name: 'Locked Slug Renamed', ttlSeconds: 10 } });
  assert.equal(sameSlug.status, 200, 'sending the unchanged slug is not a change');
  assert.equal((await t.request('GET', url, { as: 'admin' })).body.slug, 'locked_slug');
});

test('the scope is locked once a record exists', async () => {
  const created = await createDefinition(t, { name: 'Locked Scope' });
  await insertRecord(t.database.db, created.id);
  const response = await t.request('PATCH', `${DEFINITIONS_URL}/${created.id}`, { as: 'admin', body: { scope: 'run' } });
  assert.equal(response.status, 409);
  assert.equal(response.body.error.code, 'BOT_ERR_MEMORY_DEFINITION_SCOPE_LOCKED');
});

test('an empty patch answers the definition unchanged', async () => {
  const created = await createDefinition(t, { name: 'Empty Patch' });
  t.clock.advance(1_000);
  const response = await t.request('PATCH', `${DEFINITIONS_URL}/${created.id}`, { as: 'admin', body: {} });
  assert.equal(response.status, 200);
  assert.deepEqual(response.body, created);
});
