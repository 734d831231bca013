import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setOwnProperty } from '../../host/json/set-own-property.ts';
import { storableData } from '../../host/json/storable.ts';
import { toPlainData } from '../../host/workflows/expressions/to-plain-data.ts';

const withProtoKey = (value: unknown) => JSON.parse(`{"__proto__":${JSON.stringify(value)},"b":1}`) as Record<string, unknown>;

test('a __proto__ key is set as an own property, never as the prototype', () => {
  const object: Record<string, unknown> = {};
  setOwnProperty(object, '__proto__', { a: 1 });
  assert.deepEqual(Object.keys(object), ['__proto__']);
  assert.equal(Object.getPrototypeOf(object), Object.prototype);
});

test('copies of JSON data keep a __proto__ key as data: storableData and toPlainData', () => {
  for (const copy of [storableData, (value: unknown) => toPlainData(value)]) {
    for (const inner of [null, { a: 1 }]) {
      const result = copy(withProtoKey(inner)) as Record<string, unknown>;
      assert.equal(JSON.stringify(result), JSON.stringify(withProtoKey(inner)));
      assert.equal(Object.getPrototypeOf(result), Object.prototype);
      assert.equal('a' in result, false, 'no key may be inherited from the data');
    }
  }
});
