import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import pino from 'pino';
import type { MemoryScope } from '../../../host/memory/definitions/memory-definition.ts';
import { MemoryRecordStore } from '../../../host/memory/records/memory-record-store.ts';
import { TestClock } from '../../support/test-clock.ts';
import { createTestDatabase, type TestDatabase } from '../../support/test-database.ts';
import { insertDefinition } from './insert-definition.ts';

let database: TestDatabase;
let store: MemoryRecordStore;
const ids: Record<MemoryScope, string> = { global: '', workflow: '', thread: '', run: '' };

before(async () => {
  database = await createTestDatabase();
  store = new MemoryRecordStore(database.db, { now: new TestClock().now, logger: pino({ level: 'silent' }) });
  for (const scope of ['global', 'workflow', 'thread', 'run'] as const) {
    ids[scope] = await insertDefinition(database.db, { slug: `${scope}_facts`, scope });
  }
});
after(() => database.close());

const allScopes = () => ({ definitionIds: Object.values(ids) });

describe('record identity per scope', () => {
  const cases = [
    { scope: 'workflow', key: 'workflowId' },
    { scope: 'thread', key: 'threadId' },
    { scope: 'run', key: 'runId' },
  ] as const;

  for (const { scope, key } of cases) {
    test(`the same owner in two different ${scope}s has two ${scope} records`, async () => {
      const owner = `owner-${scope}`;
      await store.write({ ownerId: owner, [key]: 'a' }, { [`${scope}_facts`]: { name: 'in a' } });
      await store.write({ ownerId: owner, [key]: 'b' }, { [`${scope}_facts`]: { name: 'in b' } });

      const inA = await store.load({ ownerId: owner, [key]: 'a' }, allScopes());
      const inB = await store.load({ ownerId: owner, [key]: 'b' }, allScopes());
      assert.deepEqual(inA.values, { [`${scope}_facts`]: { name: 'in a' } });
      assert.deepEqual(inB.values, { [`${scope}_facts`]: { name: 'in b' } });
      assert.equal((await store.list({ ownerId: owner, limit: 10, offset: 0 })).total, 2);
    });
  }

  test('a global record is one per owner whatever workflow, thread or run writes it', async () => {
    await store.write({ ownerId: 'global-owner', workflowId: 'w1', runId: 'r1' }, { global_facts: { name: 'first' } });
    await store.write({ ownerId: 'global-owner', workflowId: 'w2', runId: 'r2' }, { global_facts: { name: 'second' } });

    const loaded = await store.load({ ownerId: 'global-owner' });
    assert.deepEqual(loaded.values, { global_facts: { name: 'second' } });
    const page = await store.list({ ownerId: 'global-owner', limit: 10, offset: 0 });
    assert.equal(page.total, 1);
    assert.equal(page.items[0]?.workflowId, null);
  });

  test('different owners never see each other’s values', async () => {
    const target = { workflowId: 'shared-w', threadId: 'shared-t', runId: 'shared-r' };
    const values = { global_facts: { name: 'x' }, workflow_facts: { name: 'x' }, thread_facts: { name: 'x' }, run_facts: { name: 'x' } };
    await store.write({ ownerId: 'alice', ...target }, values);

    const bob = await store.load({ ownerId: 'bob', ...target }, allScopes());
    assert.deepEqual(bob.values, {});
    const alice = await store.load({ ownerId: 'alice', ...target }, allScopes());
    assert.deepEqual(Object.keys(alice.values).sort(), ['global_facts', 'run_facts', 'thread_facts', 'workflow_facts']);
  });

  test('load leaves out scoped definitions the caller did not declare or has no id for', async () => {
    const target = { ownerId: 'carol', workflowId: 'w', threadId: 't', runId: 'r' };
    await store.write(target, { global_facts: { name: 'g' }, workflow_facts: { name: 'w' }, thread_facts: { name: 't' } });

    assert.deepEqual(Object.keys((await store.load(target)).values), ['global_facts']);
    const withoutThread = await store.load({ ownerId: 'carol', workflowId: 'w' }, allScopes());
    assert.deepEqual(Object.keys(withoutThread.values).sort(), ['global_facts', 'workflow_facts']);
  });

  test('a write to a scoped definition without its scope id is rejected', async () => {
    await assert.rejects(store.write({ ownerId: 'dave' }, { thread_facts: { name: 'x' } }), {
      code: 'BOT_ERR_MEMORY_SCOPE_MISSING',
      details: { slug: 'thread_facts', scope: 'thread', needs: 'threadId' },
    });
  });
});

describe('writes', () => {
  test('a write replaces the whole value instead of merging it', async () => {
    const target = { ownerId: 'erin' };
    await store.write(target, { global_facts: { name: 'Erin', age: 30 } });
    const [record] = await store.write(target, { global_facts: { name: 'Erin B.' } });

    assert.deepEqual(record?.value, { name: 'Erin B.' });
    assert.deepEqual((await store.load(target)).values, { global_facts: { name: 'Erin B.' } });
  });

  test('a write returns the stored records with their slugs', async () => {
    const records = await store.write({ ownerId: 'fay', threadId: 't1' }, { global_facts: { name: 'a' }, thread_facts: { age: 2 } });

    const bySlug = new Map(records.map((record) => [record.slug, record]));
    assert.equal(bySlug.get('thread_facts')?.threadId, 't1');
    assert.equal(bySlug.get('thread_facts')?.definitionId, ids.thread);
    assert.equal(bySlug.get('global_facts')?.threadId, null);
  });

  test('100 concurrent first writes to the same identity leave exactly one record', async () => {
    const writes = Array.from({ length: 100 }, (_, index) => store.write({ ownerId: 'gus' }, { global_facts: { age: index } }));
    const results = await Promise.all(writes);

    const page = await store.list({ ownerId: 'gus', limit: 10, offset: 0 });
    assert.equal(page.total, 1);
    assert.equal(new Set(results.map(([record]) => record?.id)).size, 1);
  });

  test('a batch writes many targets in one call, the last entry winning for a repeated identity', async () => {
    const records = await store.writeBatch([
      { target: { ownerId: 'h1' }, slug: 'global_facts', value: { age: 1 } },
      { target: { ownerId: 'h2' }, slug: 'global_facts', value: { age: 2 } },
      { target: { ownerId: 'h1' }, slug: 'global_facts', value: { age: 3 } },
    ]);

    assert.equal(records.length, 2);
    assert.deepEqual((await store.load({ ownerId: 'h1' })).values, { global_facts: { age: 3 } });
    assert.deepEqual((await store.load({ ownerId: 'h2' })).values, { global_facts: { age: 2 } });
  });

  test('an empty write does nothing', async () => {
    assert.deepEqual(await store.write({ ownerId: 'ivy' }, {}), []);
  });
});

describe('erasing', () => {
  test('eraseOwner deletes every record of that owner and no other', async () => {
    await store.write({ ownerId: 'jack', workflowId: 'w' }, { global_facts: { age: 1 }, workflow_facts: { age: 2 } });
    await store.write({ ownerId: 'kate' }, { global_facts: { age: 1 } });

    assert.equal(await store.eraseOwner('jack'), 2);
    assert.deepEqual((await store.load({ ownerId: 'jack', workflowId: 'w' }, allScopes())).values, {});
    assert.deepEqual((await store.load({ ownerId: 'kate' })).values, { global_facts: { age: 1 } });
  });
});
