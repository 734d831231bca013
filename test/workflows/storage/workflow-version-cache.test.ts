import assert from 'node:assert/strict';
import { test } from 'node:test';
import { WorkflowVersionCache } from '../../../host/workflows/storage/workflow-version-cache.ts';

const ID = '0b7c6a52-4c1e-4f0e-9a57-3f1d2c8e9b10';

/** A cache over an in-memory table of current versions whose reads are counted, on a clock moved by hand. */
function cacheOver(table: Map<string, number>) {
  let nowMs = 0;
  const reads: string[] = [];
  const cache = new WorkflowVersionCache({
    load: async (id) => (reads.push(id), table.get(id)),
    now: () => nowMs,
    ttlMs: 1_000,
    missTtlMs: 100,
  });
  return { cache, reads, advance: (ms: number) => void (nowMs += ms) };
}

test('serves the current version from memory until forgotten or its TTL runs out', async () => {
  const table = new Map([[ID, 1]]);
  const { cache, reads, advance } = cacheOver(table);
  assert.equal(await cache.currentVersion(ID), 1);
  table.set(ID, 2);
  assert.equal(await cache.currentVersion(ID), 1, 'from memory');
  cache.forget(ID);
  assert.equal(await cache.currentVersion(ID), 2);
  table.set(ID, 3);
  advance(1_000);
  assert.equal(await cache.currentVersion(ID), 3);
  assert.deepEqual(reads, [ID, ID, ID]);
});

test("an id with no workflow is 'none', remembered only for the miss TTL", async () => {
  const table = new Map<string, number>();
  const { cache, reads, advance } = cacheOver(table);
  assert.equal(await cache.currentVersion(ID), 'none');
  table.set(ID, 1);
  assert.equal(await cache.currentVersion(ID), 'none', 'still within the miss TTL');
  advance(100);
  assert.equal(await cache.currentVersion(ID), 1);
  assert.deepEqual(reads, [ID, ID]);
});

test("an id that is not a UUID (a webhook URL can name anything) is 'none' without a read", async () => {
  const { cache, reads } = cacheOver(new Map());
  assert.equal(await cache.currentVersion('not-a-uuid'), 'none');
  assert.equal(await cache.currentVersion(`${ID}'; --`), 'none');
  assert.deepEqual(reads, []);
});

test('a UUID spelt in capitals reads the workflow, and a notice naming it as the database spells it forgets that entry', async () => {
  const table = new Map([[ID, 1]]);
  const { cache, reads } = cacheOver(table);
  assert.equal(await cache.currentVersion(ID.toUpperCase()), 1);
  table.set(ID, 2);
  cache.forget(ID);
  assert.equal(await cache.currentVersion(ID.toUpperCase()), 2);
  assert.deepEqual(reads, [ID, ID]);
});

test('a read that began before a forget is answered but not kept', async () => {
  const table = new Map([[ID, 1]]);
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let first = true;
  const cache = new WorkflowVersionCache({
    load: async (id) => {
      const version = table.get(id);
      if (first) {
        first = false;
        await held;
      }
      return version;
    },
    now: () => 0,
  });
  const reading = cache.currentVersion(ID);
  table.set(ID, 2);
  cache.forget(ID); // the save committed while the read was under way
  release();
  assert.equal(await reading, 1);
  assert.equal(await cache.currentVersion(ID), 2);
});
