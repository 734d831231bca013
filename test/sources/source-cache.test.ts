import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { SourceCache, type SourceCacheOptions } from '../../host/sources/source-cache.ts';
import type { SourceRow } from '../../host/sources/source.ts';

function sourceRow(ref: string, secret = 'first'): SourceRow {
  const at = new Date('2026-11-22T10:00:00Z');
  return { id: `id-${ref}`, ref, name: ref, channel: 'sample', settings: { webhook_secret: secret }, egress_grants: [], active: true, default_workflow_id: null, created_at: at, updated_at: at };
}

/** A cache over an in-memory table whose reads are counted, on a clock moved by hand. */
function cacheOver(table: Map<string, SourceRow>, options: Partial<SourceCacheOptions> = {}) {
  let nowMs = 0;
  const reads: string[] = [];
  const cache = new SourceCache({
    load: async (ref) => {
      reads.push(ref);
      return table.get(ref) && structuredClone(table.get(ref));
    },
    now: () => nowMs,
    ttlMs: 1_000,
    missTtlMs: 100,
    ...options,
  });
  return { cache, reads, advance: (ms: number) => void (nowMs += ms) };
}

/** As cacheOver, with lookups by id counted too (`id:<id>` in reads). */
function cacheWithIds(table: Map<string, SourceRow>) {
  const reads: string[] = [];
  const byId = async (id: string) => {
    reads.push(`id:${id}`);
    const row = [...table.values()].find((source) => source.id === id);
    return row && structuredClone(row);
  };
  const cached = cacheOver(table, { loadById: byId });
  return { ...cached, reads: { all: () => [...cached.reads, ...reads] } };
}

describe('the source cache', () => {
  test('serves a source from memory until its TTL runs out, then reads it again', async () => {
    const { cache, reads, advance } = cacheOver(new Map([['a', sourceRow('a')]]));
    assert.equal((await cache.get('a'))?.ref, 'a');
    advance(999);
    assert.equal((await cache.get('a'))?.ref, 'a');
    assert.deepEqual(reads, ['a']);
    advance(1);
    await cache.get('a');
    assert.deepEqual(reads, ['a', 'a']);
  });

  test('remembers an unknown ref only for the short miss TTL, so a source created meanwhile is found', async () => {
    const table = new Map<string, SourceRow>();
    const { cache, reads, advance } = cacheOver(table);
    assert.equal(await cache.get('late'), undefined);
    table.set('late', sourceRow('late'));
    assert.equal(await cache.get('late'), undefined, 'still within the miss TTL');
    advance(100);
    assert.equal((await cache.get('late'))?.ref, 'late');
    assert.deepEqual(reads, ['late', 'late']);
  });

  test('a lookup by id is served from the entry of its ref, and forgetting the ref forgets it', async () => {
    // A send's egress rules read its source by id; without this, every send cost a query.
    const table = new Map([['a', sourceRow('a')]]);
    const { cache, reads } = cacheWithIds(table);
    assert.equal((await cache.getById('id-a'))?.ref, 'a');
    assert.equal((await cache.getById('id-a'))?.ref, 'a');
    assert.equal((await cache.get('a'))?.ref, 'a', 'the entry is the ref\'s');
    assert.deepEqual(reads.all(), ['id:id-a']);
    table.set('a', sourceRow('a', 'second'));
    cache.forget('a');
    assert.equal((await cache.getById('id-a'))?.settings.webhook_secret, 'second');
    assert.deepEqual(reads.all(), ['id:id-a', 'id:id-a']);
    assert.equal(await cache.getById('id-unknown'), undefined);
    assert.equal(await cache.getById('id-unknown'), undefined);
    assert.deepEqual(reads.all(), ['id:id-a', 'id:id-a', 'id:id-unknown', 'id:id-unknown'], 'unknown ids are not remembered');
  });

  test('forget makes the next read go to the database', async () => {
    const table = new Map([['a', sourceRow('a')]]);
    const { cache, reads } = cacheOver(table);
    await cache.get('a');
    table.set('a', sourceRow('a', 'second'));
    cache.forget('a');
    assert.equal((await cache.get('a'))?.settings.webhook_secret, 'second');
    assert.deepEqual(reads, ['a', 'a']);
  });

  test('a read that began before a forget answers its caller but is not kept', async () => {
    const table = new Map([['a', sourceRow('a')]]);
    const { promise: released, resolve: release } = Promise.withResolvers<void>();
    const { cache, reads } = cacheOver(table, {
      load: async (ref) => {
        reads.push(ref);
        const row = structuredClone(table.get(ref));
        await released; // the old row is read, then the write commits and forgets, then the read returns
        return row;
      },
    });
    const stale = cache.get('a');
    table.set('a', sourceRow('a', 'second'));
    cache.forget('a');
    release();
    assert.equal((await stale)?.settings.webhook_secret, 'first');
    assert.equal((await cache.get('a'))?.settings.webhook_secret, 'second');
    assert.deepEqual(reads, ['a', 'a']);
  });

  test('concurrent reads of one ref share one query', async () => {
    const { cache, reads } = cacheOver(new Map([['a', sourceRow('a')]]));
    const rows = await Promise.all([cache.get('a'), cache.get('a'), cache.get('a')]);
    assert.ok(rows.every((row) => row?.ref === 'a'));
    assert.deepEqual(reads, ['a']);
  });

  test('a failed read is not remembered', async () => {
    let fail = true;
    const cache = new SourceCache({
      load: async (ref) => {
        if (fail) throw new Error('connection lost');
        return sourceRow(ref);
      },
      now: () => 0,
    });
    await assert.rejects(cache.get('a'), /connection lost/);
    fail = false;
    assert.equal((await cache.get('a'))?.ref, 'a');
  });

  test('holds at most maxEntries refs and drops the least recently loaded first', async () => {
    const table = new Map(['a', 'b', 'c'].map((ref) => [ref, sourceRow(ref)]));
    const { cache, reads } = cacheOver(table, { maxEntries: 2 });
    for (const ref of ['a', 'b', 'c', 'c', 'b', 'a']) await cache.get(ref);
    assert.deepEqual(reads, ['a', 'b', 'c', 'a']);
  });

  test('clear drops every ref', async () => {
    const { cache, reads } = cacheOver(new Map([['a', sourceRow('a')], ['b', sourceRow('b')]]));
    await cache.get('a');
    await cache.get('b');
    cache.clear();
    await cache.get('a');
    await cache.get('b');
    assert.deepEqual(reads, ['a', 'b', 'a', 'b']);
  });

  test('the row every request shares is frozen, settings included', async () => {
    const { cache } = cacheOver(new Map([['a', sourceRow('a')]]));
    const row = (await cache.get('a'))!;
    assert.throws(() => {
      (row.settings as Record<string, unknown>).webhook_secret = 'changed';
    }, TypeError);
    assert.equal((await cache.get('a'))!.settings.webhook_secret, 'first');
  });

  test('refuses options that make no sense, naming the option', () => {
    const load = async () => undefined;
    assert.throws(() => new SourceCache({ load, now: Date.now, ttlMs: -1 }), /options\.ttlMs/);
    assert.throws(() => new SourceCache({ load, now: Date.now, maxEntries: 0 }), /options\.maxEntries/);
  });
});
