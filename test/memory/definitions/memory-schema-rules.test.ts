import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isAppError } from '../../../host/errors/app-error.ts';
import { checkTtlSeconds, MAX_TTL_SECONDS, normalizeMemorySchema } from '../../../host/memory/definitions/memory-schema-rules.ts';

const city = { type: 'string', description: 'Home city' };
const objectOf = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  type: 'object',
  properties,
  ...extra,
});

/** Asserts the call throws the code with a `details.field` naming the offending part. */
function assertRejects(call: () => unknown, code: string, field: string): void {
  assert.throws(call, (error: unknown) => {
    assert.ok(isAppError(error), 'an AppError');
    assert.equal(error.code, code);
    assert.equal((error.details as { field: string }).field, field);
    return true;
  });
}

test('adds additionalProperties false when absent and keeps the rest', () => {
  const input = objectOf({ city }, { title: 'Profile', required: ['city'] });
  assert.deepEqual(normalizeMemorySchema(input), { ...input, additionalProperties: false });
  assert.equal('additionalProperties' in input, false, 'the input is not mutated');
});

test('accepts additionalProperties false, union types, arrays with items and formats', () => {
  const schema = objectOf(
    {
      email: { type: 'string', format: 'email', description: 'Contact address', title: 'E-mail' },
      nickname: { type: ['string', 'null'], description: 'What they like to be called' },
      tags: { type: 'array', items: { type: 'string' }, description: 'Interests' },
    },
    { additionalProperties: false },
  );
  assert.deepEqual(normalizeMemorySchema(schema), schema);
});

test('nested object schemas become strict too', () => {
  const address = { type: 'object', description: 'Postal address', properties: { street: { type: 'string' } } };
  const orders = { type: 'array', description: 'Orders', items: { type: 'object', properties: { id: { type: 'integer' } } } };
  const result = normalizeMemorySchema(objectOf({ address, orders })) as any; // eslint-disable-line @typescript-eslint/no-explicit-any
  assert.equal(result.properties.address.additionalProperties, false);
  assert.equal(result.properties.orders.items.additionalProperties, false);
});

const INVALID: [reason: string, schema: unknown, field: string][] = [
  ['a non-object schema', 'string', 'schema'],
  ['an array as schema', [city], 'schema'],
  ['a schema whose type is not object', { type: 'string' }, 'schema.type'],
  ['a schema without properties', { type: 'object' }, 'schema.properties'],
  ['a schema with empty properties', objectOf({}), 'schema.properties'],
  ['a property that is not an object', objectOf({ city: 'string' }), 'schema.properties.city'],
  ['a property without type', objectOf({ city: { description: 'Home city' } }), 'schema.properties.city.type'],
  ['a property with an unknown type name', objectOf({ age: { type: 'int', description: 'Age' } }), 'schema.properties.age.type'],
  ['a property with repeated type names', objectOf({ age: { type: ['integer', 'integer'], description: 'Age' } }), 'schema.properties.age.type'],
  ['a property without description', objectOf({ city: { type: 'string' } }), 'schema.properties.city.description'],
  ['a property with a blank description', objectOf({ city: { type: 'string', description: '  ' } }), 'schema.properties.city.description'],
  ['an array property without items', objectOf({ tags: { type: 'array', description: 'Tags' } }), 'schema.properties.tags.items'],
  ['a title that is not a string', objectOf({ city }, { title: 3 }), 'schema.title'],
  ['additionalProperties true', objectOf({ city }, { additionalProperties: true }), 'schema.additionalProperties'],
  ['additionalProperties as a schema', objectOf({ city }, { additionalProperties: { type: 'string' } }), 'schema.additionalProperties'],
  ['patternProperties', objectOf({ city }, { patternProperties: { '^x': { type: 'string' } } }), 'schema.patternProperties'],
  ['required naming an unknown property', objectOf({ city }, { required: ['country'] }), 'schema.required'],
  ['required that is not an array', objectOf({ city }, { required: 'city' }), 'schema.required'],
  ['required naming a property twice', objectOf({ city }, { required: ['city', 'city'] }), 'schema.required'],
  ['a nested object allowing additional properties', objectOf({ address: { type: 'object', description: 'Address', properties: {}, additionalProperties: true } }), 'schema.properties.address.additionalProperties'],
  ['a nested property without type', objectOf({ address: { type: 'object', description: 'Address', properties: { street: {} } } }), 'schema.properties.address.properties.street.type'],
  ['an unknown keyword (ajv strict mode)', objectOf({ city: { ...city, 'ui:widget': 'text' } }), 'schema'],
  ['a keyword with a bad value', objectOf({ city: { ...city, minLength: 'two' } }), 'schema'],
];

for (const [reason, schema, field] of INVALID) {
  test(`rejects ${reason} with BOT_ERR_MEMORY_SCHEMA_INVALID at ${field}`, () => {
    assertRejects(() => normalizeMemorySchema(schema), 'BOT_ERR_MEMORY_SCHEMA_INVALID', field);
  });
}

const TTLS: [ttl: unknown, expected: number | null][] = [
  [undefined, null],
  [null, null],
  [1, 1],
  [86_400, 86_400],
  [MAX_TTL_SECONDS, MAX_TTL_SECONDS],
];

for (const [ttl, expected] of TTLS) {
  test(`TTL ${String(ttl)} is accepted as ${String(expected)}`, () => {
    assert.equal(checkTtlSeconds(ttl), expected);
  });
}

for (const ttl of [0, -5, 1.5, '60', true, MAX_TTL_SECONDS + 1, Number.NaN, {}]) {
  test(`TTL ${JSON.stringify(ttl) ?? String(ttl)} is rejected with BOT_ERR_MEMORY_TTL_INVALID`, () => {
    assertRejects(() => checkTtlSeconds(ttl), 'BOT_ERR_MEMORY_TTL_INVALID', 'ttlSeconds');
  });
}

test('refuses a schema nested deeper than the limit before recursing into it', () => {
  let node: Record<string, unknown> = { type: 'string', description: 'leaf' };
  for (let depth = 0; depth < 5_000; depth += 1) node = { type: 'array', description: 'level', items: node };
  assert.throws(
    () => normalizeMemorySchema({ type: 'object', properties: { deep: node } }),
    (error: unknown) => isAppError(error) && error.code === 'BOT_ERR_MEMORY_SCHEMA_INVALID' && /nested too deeply/.test(error.message),
  );
});

test('refuses a schema with more values than the limit', () => {
  const properties = Object.fromEntries(
    Array.from({ length: 5_000 }, (_, index) => [`p${index}`, { type: 'string', description: 'x' }]),
  );
  assert.throws(
    () => normalizeMemorySchema({ type: 'object', properties }),
    (error: unknown) => isAppError(error) && error.code === 'BOT_ERR_MEMORY_SCHEMA_INVALID' && /too large/.test(error.message),
  );
});

test('accepts a schema nested to a sensible depth', () => {
  let node: Record<string, unknown> = { type: 'string', description: 'leaf' };
  for (let depth = 0; depth < 4; depth += 1) node = { type: 'array', description: 'level', items: node };
  assert.doesNotThrow(() => normalizeMemorySchema({ type: 'object', properties: { nested: node } }));
});
