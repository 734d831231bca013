import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import pino from 'pino';
import { SourceCache } from '../../host/sources/source-cache.ts';
import { SourceCacheSync } from '../../host/sources/source-cache-sync.ts';
import { SourceStore } from '../../host/sources/source-store.ts';
import { createTestDatabase, type TestDatabase } from '../support/test-database.ts';

const SCHEMA = { type: 'object', properties: { webhook_secret: { type: 'string' } } };
const channels = { settingsSchemaOf: () => SCHEMA };
const noSecrets = () => [];

/** One host instance's view: its store, its cache, its listener, and what the listener dropped. */
interface Instance {
  store: SourceStore;
  cache: SourceCache;
  sync: SourceCacheSync;
  /** Refs forgotten, and `*` for each time the whole cache was emptied. */
  dropped: string[];
}

let database: TestDatabase;
let a: Instance;
let b: Instance;
before(async () => {
  database = await createTestDatabase({ poolMax: 6 });
  [a, b] = [startInstance('instance-a'), startInstance('instance-b')];
  await Promise.all([a.sync.start(), b.sync.start()]);
});
after(async () => {
  await Promise.all([a.sync.close(), b.sync.close()]);
  await database.close();
});

function startInstance(instanceId: string): Instance {
  const dropped: string[] = [];
  const cache = new SourceCache({ load: (ref) => store.findByRef(ref), now: Date.now });
  const recording = {
    forget: (ref: string) => void (dropped.push(ref), cache.forget(ref)),
    clear: () => void (dropped.push('*'), cache.clear()),
  };
  const sync = new SourceCacheSync({ db: database.db, cache: recording, instanceId, logger: pino({ level: 'silent' }), reconnectDelayMs: 20 });
  const store: SourceStore = new SourceStore(database.db, channels, () => new Date(), sync);
  return { store, cache, sync, dropped };
}

/** Polls (every 10 ms, for at most 2 s) until `check` holds: notices arrive asynchronously. */
async function eventually(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 2_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

let counter = 0;

/** Creates a source on `writer` and waits until both instances heard of it, so later notices stand apart. */
async function createSource(writer: Instance) {
  const source = await writer.store.create({ name: `Synced ${(counter += 1)}`, channel: 'sample', settings: { webhook_secret: 'first' } });
  const other = writer === a ? b : a;
  await eventually(() => other.dropped.includes(source.ref), 'the creation was heard');
  a.dropped.length = 0;
  b.dropped.length = 0;
  return source;
}

describe('source caches on several instances', () => {
  test("a change on one instance reaches another instance's cache within moments", async () => {
    const source = await createSource(a);
    assert.equal((await b.cache.get(source.ref))?.settings.webhook_secret, 'first');
    await a.store.update(source.id, { settings: { webhook_secret: 'second' } }, noSecrets);
    await eventually(() => b.dropped.includes(source.ref), 'instance b forgot the source');
    assert.equal((await b.cache.get(source.ref))?.settings.webhook_secret, 'second');
  });

  test('the writer drops its own copy before the write returns, and skips its own notice', async () => {
    const source = await createSource(a);
    await a.cache.get(source.ref);
    await a.store.update(source.id, { active: false }, noSecrets);
    assert.deepEqual(a.dropped, [source.ref]);
    assert.equal((await a.cache.get(source.ref))?.active, false);
    await eventually(() => b.dropped.includes(source.ref), 'instance b heard of the change');
    assert.deepEqual(a.dropped, [source.ref], 'its own notice changed nothing');
  });

  test('a deleted source is unknown to the other instance at once', async () => {
    const source = await createSource(b);
    assert.ok(await a.cache.get(source.ref));
    await b.store.delete(source.id);
    await eventually(() => a.dropped.includes(source.ref), 'instance a forgot the deleted source');
    assert.equal(await a.cache.get(source.ref), undefined);
  });

  test('a write that rolls back sends no notice', async () => {
    const taken = await createSource(a);
    const other = await createSource(a);
    await assert.rejects(a.store.update(other.id, { name: taken.name }, noSecrets), { code: 'BOT_ERR_SOURCE_NAME_TAKEN' });
    await a.store.update(taken.id, { active: false }, noSecrets);
    // Notices arrive in commit order: once the later one is here, the refused one would have been too.
    await eventually(() => b.dropped.includes(taken.ref), 'instance b heard of the committed write');
    assert.ok(!b.dropped.includes(other.ref));
  });

  test('a lost listener empties the cache, reconnects, and hears changes again', async () => {
    const source = await createSource(a);
    await b.cache.get(source.ref);
    const killed = await database.db.raw(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
       WHERE datname = current_database() AND query = 'LISTEN bot_source_changes' AND pid <> pg_backend_pid()`,
    );
    assert.equal(killed.rows.length, 2, "both instances' listeners");
    await eventually(() => b.dropped.filter((entry) => entry === '*').length === 2, 'instance b emptied its cache on loss and on reconnect');
    await a.store.update(source.id, { settings: { webhook_secret: 'after reconnect' } }, noSecrets);
    await eventually(() => b.dropped.includes(source.ref), 'instance b heard a change after reconnecting');
    assert.equal((await b.cache.get(source.ref))?.settings.webhook_secret, 'after reconnect');
  });
});
