import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MemoryValueValidator } from '../../../host/memory/records/memory-value-validator.ts';

const properties = {
  name: { type: 'string', description: 'Name' },
  email: { type: 'string', format: 'email', description: 'Email address' },
  tags: { type: 'array', items: { type: 'string' }, description: 'Labels' },
};
const definition = { id: 'd1', updatedAt: '2030-01-01T00:00:00.000Z', schema: { type: 'object', properties, additionalProperties: false } };

test('a matching value has no errors', () => {
  assert.deepEqual(new MemoryValueValidator().check(definition, { name: 'Ada', email: 'ada@example.com', tags: ['x'] }), []);
});

test('every problem is listed with a JSON pointer and a readable message', () => {
  const errors = new MemoryValueValidator().check(definition, { name: 1, email: 'not-an-email', tags: ['ok', 2], extra: true });

  assert.deepEqual(errors, [
    { path: '/extra', message: 'is not an allowed property' },
    { path: '/name', message: 'must be string' },
    { path: '/email', message: 'must match format "email"' },
    { path: '/tags/1', message: 'must be string' },
  ]);
});

test('a missing required property is reported at its own path', () => {
  const required = { ...definition, schema: { ...definition.schema, required: ['name'] } };

  assert.deepEqual(new MemoryValueValidator().check(required, {}), [{ path: '/name', message: 'is required' }]);
});

test('additional properties are rejected even when the stored schema does not say so', () => {
  const lax = { ...definition, schema: { type: 'object', properties } };

  assert.deepEqual(new MemoryValueValidator().check(lax, { extra: 1 }), [{ path: '/extra', message: 'is not an allowed property' }]);
});

test('the compiled validator is reused until the definition changes, then recompiled', () => {
  const validator = new MemoryValueValidator();
  assert.deepEqual(validator.check(definition, { name: 'Ada' }), []);

  const sameVersionOtherSchema = { ...definition, schema: { type: 'object', properties: {} } };
  assert.deepEqual(validator.check(sameVersionOtherSchema, { name: 'Ada' }), [], 'cached by id and updatedAt');

  const updated = { ...sameVersionOtherSchema, updatedAt: '2030-01-02T00:00:00.000Z' };
  assert.deepEqual(validator.check(updated, { name: 'Ada' }), [{ path: '/name', message: 'is not an allowed property' }]);
});

test('two definitions may carry the same $id', () => {
  const validator = new MemoryValueValidator();
  const withId = (id: string) => ({ ...definition, id, schema: { ...definition.schema, $id: 'https://example.com/person' } });

  assert.deepEqual(validator.check(withId('a'), { name: 'A' }), []);
  assert.deepEqual(validator.check(withId('b'), { name: 'B' }), []);
});
