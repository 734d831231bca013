import assert from 'node:assert/strict';
import { test } from 'node:test';
import { storableData, storableJson, storableText } from '../../host/json/storable.ts';
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
