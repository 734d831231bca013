import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { WriteDefinition } from '../../../host/memory/records/memory-write-rows.ts';
import { WriteDefinitionCache } from '../../../host/memory/records/write-definition-cache.ts';

function definitions(...slugs: string[]): Map<string, WriteDefinition> {
  const at = new Date('2030-01-01T00:00:00.000Z');
  return new Map(
    slugs.map((slug) => [slug, { id: `id-${slug}`, slug, scope: 'global', ttl_seconds: null, schema: {}, updated_at: at, version: at.toISOString() }]),
  );
}

test('getAll answers only when every slug is cached', () => {
  const cache = new WriteDefinitionCache();
  cache.remember(['a', 'b'], definitions('a', 'b'));

  assert.deepEqual([...cache.getAll(['a', 'b'])!.keys()], ['a', 'b']);
  assert.equal(cache.getAll(['a', 'c']), undefined);
});

test('remember forgets slugs that were asked for but not found', () => {
  const cache = new WriteDefinitionCache();
  cache.remember(['a'], definitions('a'));
  cache.remember(['a'], definitions());

  assert.equal(cache.getAll(['a']), undefined);
});

test('forget drops the given slugs only', () => {
  const cache = new WriteDefinitionCache();
  cache.remember(['a', 'b'], definitions('a', 'b'));
  cache.forget(['a']);

  assert.equal(cache.getAll(['a']), undefined);
  assert.ok(cache.getAll(['b']));
});

test('a full cache evicts the least recently used slug', () => {
  const cache = new WriteDefinitionCache({ maxEntries: 2 });
  cache.remember(['a', 'b'], definitions('a', 'b'));
  cache.getAll(['a']);
  cache.remember(['c'], definitions('c'));

  assert.equal(cache.size, 2);
  assert.equal(cache.getAll(['b']), undefined);
  assert.ok(cache.getAll(['a', 'c']));
});

test('the size bound is checked when the cache is built', () => {
  assert.throws(() => new WriteDefinitionCache({ maxEntries: 0 }), /maxEntries must be a positive integer/);
});
