import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { asJsonbStores } from '../../host/json/as-jsonb-stores.ts';
import { createTestDatabase, type TestDatabase } from '../support/test-database.ts';

let database: TestDatabase;
before(async () => {
  database = await createTestDatabase({ migrate: false });
});
after(() => database.close());

/** The value as PostgreSQL's jsonb gives it back. */
async function storedByPostgres(value: unknown): Promise<unknown> {
  const { rows } = await database.db.raw<{ rows: { value: unknown }[] }>('SELECT ?::jsonb AS value', [JSON.stringify(value)]);
  return rows[0]!.value;
}

/** Keys in their order, at every level, so a deepEqual that ignores key order cannot pass by chance. */
function shape(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(shape);
  if (value === null || typeof value !== 'object') return value;
  return Object.entries(value).map(([key, item]) => [key, shape(item)]);
}

test('a value shown before it is stored reads as jsonb gives it back: keys by length, then by their UTF-8 bytes, at every level', async () => {
  const values = [
    '{"name": "Ada", "id": 1, "z": true, "aa": null, "é": "accent", "e": "plain", "Z": "upper", "": "empty", "😀": "emoji"}',
    '{"list": [{"b": 2, "a": 1}, "x", 3.5, {"longer": 1, "short": 2}], "nested": {"deep": {"bb": 1, "a": 2}}}',
    '{"__proto__": "an own key", "constructor": 1}',
    '[3, {"y": 1, "x": 2}]',
  ].map((text) => JSON.parse(text));
  for (const value of values) {
    assert.deepEqual(shape(asJsonbStores(value)), shape(await storedByPostgres(value)), JSON.stringify(value));
  }
});

test('text jsonb would refuse is shown as it is stored: NUL and unpaired surrogates become U+FFFD', () => {
  assert.deepEqual(asJsonbStores({ note: 'a\u0000b\uD800' }), { note: 'a\uFFFDb\uFFFD' });
});
