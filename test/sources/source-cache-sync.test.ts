import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Knex } from 'knex';
import pino from 'pino';
import { ChangeNoticeSync } from '../../host/db/change-notice-sync.ts';
import { SourceCache } from '../../host/sources/source-cache.ts';
import { SOURCE_CHANGES } from '../../host/sources/source-changes.ts';
import { SourceStore } from '../../host/sources/source-store.ts';
import { eventually, recordingDrops, terminateListeners, TwoInstances, type ListeningInstance } from '../support/change-notices.ts';

const SCHEMA = { type: 'object', properties: { webhook_secret: { type: 'string' } } };
const channels = { settingsSchemaOf: () => SCHEMA };
const noSecrets = () => [];

/** One host instance's view: its store, its cache, its listener, and what the listener dropped (refs). */
interface Instance extends ListeningInstance {
  store: SourceStore;
  cache: SourceCache;
}

const instances = new TwoInstances(startInstance);
let a: Instance;
let b: Instance;
before(async () => ({ a, b } = await instances.open()));
after(() => instances.close());

function startInstance(db: Knex, instanceId: string): Instance {
  const dropped: string[] = [];
  const cache = new SourceCache({ load: (ref) => store.findByRef(ref), loadById: (id) => store.findById(id), now: Date.now });
  const sync = new ChangeNoticeSync(SOURCE_CHANGES, { db, cache: recordingDrops(cache, dropped), instanceId, logger: pino({ level: 'silent' }), reconnectDelayMs: 20 });
  const store: SourceStore = new SourceStore(db, channels, () => new Date(), sync);
  return { store, cache, syncs: [sync], dropped };
}

let counter = 0;

/** Creates a source on `writer` and waits until the other instance heard of it. */
async function createSource(writer: Instance) {
  const source = await writer.store.create({ name: `Synced ${(counter += 1)}`, channel: 'sample', settings: { webhook_secret: 'first' } });
  await instances.heardByTheOther(writer, source.ref);
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

  test('a source read by id (as a claimed event reads it) is forgotten on the other instance too', async () => {
    const source = await createSource(a);
    assert.equal((await b.cache.getById(source.id))?.active, true);
    await a.store.update(source.id, { active: false }, noSecrets);
    await eventually(() => b.dropped.includes(source.ref), 'instance b forgot the deactivated source');
    assert.equal((await b.cache.getById(source.id))?.active, false);
    await a.store.delete(source.id);
    await eventually(() => b.dropped.filter((ref) => ref === source.ref).length === 2, 'instance b forgot the deleted source');
    assert.equal(await b.cache.getById(source.id), undefined);
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
    assert.equal(await terminateListeners(instances.db), 1, "the listening connection both instances share");
    await eventually(() => b.dropped.filter((entry) => entry === '*').length === 2, 'instance b emptied its cache on loss and on reconnect');
    await a.store.update(source.id, { settings: { webhook_secret: 'after reconnect' } }, noSecrets);
    await eventually(() => b.dropped.includes(source.ref), 'instance b heard a change after reconnecting');
    assert.equal((await b.cache.get(source.ref))?.settings.webhook_secret, 'after reconnect');
  });
});
