import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createTestApp, type TestApp } from '../../support/test-app.ts';
import { createDefinition, definitionBody, DEFINITIONS_URL, PROFILE_SCHEMA } from './definition-requests.ts';

let t: TestApp;
before(async () => (t = await createTestApp()));
after(() => t.close());

const city = { type: 'string', description: 'Home city' };

const INVALID: [reason: string, body: Record<string, unknown>, code: string, field?: string][] = [
  ['a slug with upper case and a dash', { slug: 'Customer-Profile' }, 'BOT_ERR_MEMORY_SLUG_INVALID', 'slug'],
  ['a slug with a space', { slug: 'customer profile' }, 'BOT_ERR_MEMORY_SLUG_INVALID', 'slug'],
  ['an empty slug', { slug: '' }, 'BOT_ERR_MEMORY_SLUG_INVALID', 'slug'],
  ['a slug over 64 characters', { slug: 'x'.repeat(65) }, 'BOT_ERR_MEMORY_SLUG_INVALID', 'slug'],
  ['a name yielding no slug', { name: '???' }, 'BOT_ERR_MEMORY_SLUG_INVALID', 'slug'],
  ['a blank name', { name: '   ' }, 'BOT_ERR_MEMORY_NAME_INVALID', 'name'],
  ['a name over 200 characters', { name: 'n'.repeat(201) }, 'BOT_ERR_MEMORY_NAME_INVALID', 'name'],
  ['a non-object schema', { schema: 'string' }, 'BOT_ERR_MEMORY_SCHEMA_INVALID', 'schema'],
  ['a schema of type array', { schema: { type: 'array', items: city } }, 'BOT_ERR_MEMORY_SCHEMA_INVALID', 'schema.type'],
  ['a missing schema', { schema: undefined }, 'BOT_ERR_HTTP_VALIDATION'],
  [
    'a property without type',
    { schema: { type: 'object', properties: { city: { description: 'Home city' } } } },
    'BOT_ERR_MEMORY_SCHEMA_INVALID',
    'schema.properties.city.type',
  ],
  [
    'a property without description',
    { schema: { type: 'object', properties: { city: { type: 'string' } } } },
    'BOT_ERR_MEMORY_SCHEMA_INVALID',
    'schema.properties.city.description',
  ],
  [
    'additionalProperties true',
    { schema: { type: 'object', properties: { city }, additionalProperties: true } },
    'BOT_ERR_MEMORY_SCHEMA_INVALID',
    'schema.additionalProperties',
  ],
  [
    'required naming an unknown property',
    { schema: { type: 'object', properties: { city }, required: ['country'] } },
    'BOT_ERR_MEMORY_SCHEMA_INVALID',
    'schema.required',
  ],
  ['TTL 0', { ttlSeconds: 0 }, 'BOT_ERR_MEMORY_TTL_INVALID', 'ttlSeconds'],
  ['a negative TTL', { ttlSeconds: -60 }, 'BOT_ERR_MEMORY_TTL_INVALID', 'ttlSeconds'],
  ['a non-integer TTL', { ttlSeconds: 1.5 }, 'BOT_ERR_MEMORY_TTL_INVALID', 'ttlSeconds'],
  ['a TTL given as a string', { ttlSeconds: '3600' }, 'BOT_ERR_MEMORY_TTL_INVALID', 'ttlSeconds'],
  ['an unknown scope', { scope: 'session' }, 'BOT_ERR_HTTP_VALIDATION'],
  ['an unknown field', { ttl: 60 }, 'BOT_ERR_HTTP_VALIDATION'],
  ['a name that is not a string', { name: 42 }, 'BOT_ERR_HTTP_VALIDATION'],
];

for (const [reason, overrides, code, field] of INVALID) {
  test(`creating with ${reason} answers 422 ${code} and stores nothing`, async () => {
    const body = definitionBody({ name: `Invalid ${reason}`, ...overrides });
    const response = await t.request('POST', DEFINITIONS_URL, { as: 'admin', body });
    assert.equal(response.status, 422, response.text);
    assert.equal(response.body.error.code, code);
    assert.ok(response.body.error.message.length > 0, 'the reason is given');
    if (field) assert.equal(response.body.error.details.field, field);
    const listed = await t.request('GET', DEFINITIONS_URL, { as: 'admin' });
    assert.equal(listed.body.total, 0);
  });
}

const INVALID_PATCHES: [reason: string, patch: Record<string, unknown>, code: string][] = [
  ['a bad slug', { slug: 'Bad Slug' }, 'BOT_ERR_MEMORY_SLUG_INVALID'],
  ['TTL 0', { ttlSeconds: 0 }, 'BOT_ERR_MEMORY_TTL_INVALID'],
  ['a schema allowing additional properties', { schema: { ...PROFILE_SCHEMA, additionalProperties: true } }, 'BOT_ERR_MEMORY_SCHEMA_INVALID'],
  ['a schema that is null', { schema: null }, 'BOT_ERR_MEMORY_SCHEMA_INVALID'],
  ['a blank name', { name: '' }, 'BOT_ERR_MEMORY_NAME_INVALID'],
];

for (const [reason, patch, code] of INVALID_PATCHES) {
  test(`updating with ${reason} answers 422 ${code} and changes nothing`, async () => {
    const created = await createDefinition(t, { name: `Patch ${reason}`, ttlSeconds: 60 });
    const url = `${DEFINITIONS_URL}/${created.id}`;
    const response = await t.request('PATCH', url, { as: 'admin', body: patch });
    assert.equal(response.status, 422, response.text);
    assert.equal(response.body.error.code, code);
    assert.deepEqual((await t.request('GET', url, { as: 'admin' })).body, created);
    await t.request('DELETE', url, { as: 'admin' });
  });
}
