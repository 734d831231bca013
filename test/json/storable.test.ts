import assert from 'node:assert/strict';
import { test } from 'node:test';
import { storableAsIs, storableData, storableJson, storableText } from '../../host/json/storable.ts';
import { createTestDatabase } from '../support/test-database.ts';

test('NUL and unpaired surrogates become U+FFFD; valid text, emoji included, is untouched', () => {
  assert.equal(storableText('a\u0000b'), 'a\uFFFDb');
  assert.equal(storableText('x\uD800y'), 'x\uFFFDy');
  assert.equal(storableText('ok 👋 ünïcode'), 'ok 👋 ünïcode');
  assert.deepEqual(storableData({ 'k\u0000': ['v\u0000', 1, null, { deep: '\uDC00' }] }), { 'k\uFFFD': ['v\uFFFD', 1, null, { deep: '\uFFFD' }] });
});

test('what storableJson writes is accepted by jsonb, where the raw text is refused', async () => {
  const database = await createTestDatabase({ migrate: false });
  try {
    const hostile = { text: 'before\u0000after \uD83D' };
    await assert.rejects(database.db.raw('SELECT ?::jsonb AS value', [JSON.stringify(hostile)]));
    const { rows } = await database.db.raw<{ rows: { value: { text: string } }[] }>('SELECT ?::jsonb AS value', [storableJson(hostile)]);
    assert.equal(rows[0]!.value.text, 'before\uFFFDafter \uFFFD');
  } finally {
    await database.close();
  }
});

test('storableJson writes what JSON.stringify writes of the storable copy, whatever the value holds', () => {
  const copyText = (value: unknown) => JSON.stringify(storableData(value));
  const values: unknown[] = [
    { plain: ['a', 1, true, null, { nested: 'ok 👋' }], at: new Date(0), dropped: undefined },
    { text: 'a\u0000b', list: ['\uD800'], 'key\uDC00': 1 },
    // Text that only spells an escape is written as it is.
    { spelled: '\\u0000 and \\ud800' },
    // What the copy writes differently from JSON.stringify: its own properties, not a toJSON.
    { bytes: Buffer.from('ab'), url: new URL('https://example.com/'), boxed: new String('ab') },
    { toJSON: () => 'own' },
    Object.assign([1], { toJSON: () => 'array' }),
    // Two keys that become one: the later one wins in the copy, even when its value is dropped.
    { 'a\uFFFD': 1, 'a\u0000': undefined },
    { __proto__: null, key: 'null prototype' },
    JSON.parse('{"__proto__": {"own": "key"}}'),
  ];
  for (const value of values) assert.equal(storableJson(value), copyText(value));
});

test('storableJson fails where the copy fails', () => {
  const cycle: Record<string, unknown> = {};
  cycle.self = cycle;
  assert.throws(() => storableJson(cycle), RangeError);
  assert.throws(() => storableJson({ big: 1n }), TypeError);
});

test('storableAsIs keeps data that needs no change, and copies the rest as storableData does', () => {
  const plain = [{ eventId: 'e1', text: 'ok 👋', at: new Date(0), list: [1, null, { deep: true }] }];
  assert.equal(storableAsIs(plain), plain);
  for (const value of [[{ text: 'a\u0000' }], [{ 'k\uD800': 1 }], [{ bytes: Buffer.from('ab') }], 'x\uDC00']) {
    const kept = storableAsIs(value);
    assert.notEqual(kept, value);
    assert.deepEqual(kept, storableData(value));
  }
});
