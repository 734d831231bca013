import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Knex } from 'knex';
import pino from 'pino';
import { ChangeNoticeSync } from '../../../host/db/change-notice-sync.ts';
import { MemoryDefinitionStore } from '../../../host/memory/definitions/memory-definition-store.ts';
import { WORKFLOW_CHANGES } from '../../../host/workflows/storage/workflow-changes.ts';
import { WorkflowStore } from '../../../host/workflows/storage/workflow-store.ts';
import { WorkflowVersionCache } from '../../../host/workflows/storage/workflow-version-cache.ts';
import { eventually, recordingDrops, terminateListeners, TwoInstances, type ListeningInstance } from '../../support/change-notices.ts';

const yaml = (text: string) => `defs:\n  say:\n    kind: task\n    action: send_text_message\n    inputs:\n      text: "${text}"\nflow:\n  - do: say\n`;

/** One host instance's view: its store, its cache of current versions, its listener, and what the listener dropped (workflow ids). */
interface Instance extends ListeningInstance {
  store: WorkflowStore;
  cache: WorkflowVersionCache;
}

const instances = new TwoInstances(startInstance);
let a: Instance;
let b: Instance;
before(async () => ({ a, b } = await instances.open()));
after(() => instances.close());

function startInstance(db: Knex, instanceId: string): Instance {
  const dropped: string[] = [];
  const cache = new WorkflowVersionCache({ load: (id) => store.currentVersion(id), now: Date.now });
  const sync = new ChangeNoticeSync(WORKFLOW_CHANGES, { db, cache: recordingDrops(cache, dropped), instanceId, logger: pino({ level: 'silent' }), reconnectDelayMs: 20 });
  const now = () => new Date();
  const store: WorkflowStore = new WorkflowStore(db, new MemoryDefinitionStore(db, { now }), { now, changes: sync });
  return { store, cache, syncs: [sync], dropped };
}

let counter = 0;

/** Creates a workflow on `writer` and waits until the other instance heard of it. */
async function createWorkflow(writer: Instance): Promise<string> {
  const { id } = await writer.store.create({ name: `Synced ${(counter += 1)}`, yaml: yaml('first') }, undefined);
  await instances.heardByTheOther(writer, id);
  return id;
}

describe('workflow version caches on several instances', () => {
  test("a version saved on one instance is current on another once that instance's listener heard of it", async () => {
    const id = await createWorkflow(a);
    assert.equal(await b.cache.currentVersion(id), 1);
    await a.store.update(id, { yaml: yaml('second') }, undefined);
    await eventually(() => b.dropped.includes(id), 'instance b forgot the workflow');
    assert.equal(await b.cache.currentVersion(id), 2);
  });

  test('the writer drops its own copy before the save returns, and skips its own notice', async () => {
    const id = await createWorkflow(a);
    assert.equal(await a.cache.currentVersion(id), 1);
    await a.store.update(id, { yaml: yaml('second') }, undefined);
    assert.deepEqual(a.dropped, [id]);
    assert.equal(await a.cache.currentVersion(id), 2);
    await eventually(() => b.dropped.includes(id), 'instance b heard of the save');
    assert.deepEqual(a.dropped, [id], 'its own notice changed nothing');
  });

  test('a deleted workflow is unknown to the other instance once it heard of it', async () => {
    const id = await createWorkflow(b);
    assert.equal(await a.cache.currentVersion(id), 1);
    await b.store.delete(id);
    await eventually(() => a.dropped.includes(id), 'instance a forgot the deleted workflow');
    assert.equal(await a.cache.currentVersion(id), 'none');
  });

  test('a save that rolls back sends no notice', async () => {
    const refused = await createWorkflow(a);
    const saved = await createWorkflow(a);
    await assert.rejects(a.store.update(refused, { yaml: 'flow: [' }, undefined), { code: 'BOT_ERR_WORKFLOW_INVALID' });
    await a.store.update(saved, { yaml: yaml('second') }, undefined);
    // Notices arrive in commit order: once the later one is here, the refused one would have been too.
    await eventually(() => b.dropped.includes(saved), 'instance b heard of the committed save');
    assert.ok(!b.dropped.includes(refused));
  });

  test('a lost listener empties the cache, reconnects, and hears saves again', async () => {
    const id = await createWorkflow(a);
    await b.cache.currentVersion(id);
    assert.equal(await terminateListeners(instances.db), 1, "the listening connection both instances share");
    await eventually(() => b.dropped.filter((entry) => entry === '*').length === 2, 'instance b emptied its cache on loss and on reconnect');
    await a.store.update(id, { yaml: yaml('after reconnect') }, undefined);
    await eventually(() => b.dropped.includes(id), 'instance b heard a save after reconnecting');
    assert.equal(await b.cache.currentVersion(id), 2);
  });
});
