import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Knex } from 'knex';
import pino from 'pino';
import { ChangeNoticeSync } from '../../host/db/change-notice-sync.ts';
import { InboundEventProcessor } from '../../host/dispatch/inbound-event-processor.ts';
import { MemoryDefinitionStore } from '../../host/memory/definitions/memory-definition-store.ts';
import { SourceCache } from '../../host/sources/source-cache.ts';
import { SOURCE_CHANGES } from '../../host/sources/source-changes.ts';
import { SourceStore } from '../../host/sources/source-store.ts';
import { WORKFLOW_CHANGES } from '../../host/workflows/storage/workflow-changes.ts';
import { WorkflowStore } from '../../host/workflows/storage/workflow-store.ts';
import { WorkflowVersionCache } from '../../host/workflows/storage/workflow-version-cache.ts';
import { eventually, recordingDrops, TwoInstances, type ListeningInstance } from '../support/change-notices.ts';
import { claimAll, LONG_LEASE_MS } from '../support/claim-events.ts';

// A claimed event's source and workflow version come from this instance's caches, not from the
// claim: a change committed on another instance must reach them (by NOTIFY) before the claim.

const logger = pino({ level: 'silent' });
const channels = { settingsSchemaOf: () => ({ type: 'object' }) };
const YAML = 'defs:\n  say:\n    kind: task\n    action: send_text_message\n    inputs:\n      text: "hi"\nflow:\n  - do: say\n';

/** One host instance: its stores, its caches with their listeners, and the keys its listeners dropped. */
interface Instance extends ListeningInstance {
  sources: SourceStore;
  sourceCache: SourceCache;
  workflows: WorkflowStore;
  versions: WorkflowVersionCache;
}

const instances = new TwoInstances(startInstance);
let a: Instance;
let b: Instance;
before(async () => ({ a, b } = await instances.open()));
after(() => instances.close());

function startInstance(db: Knex, instanceId: string): Instance {
  const now = () => new Date();
  const dropped: string[] = [];
  const sourceCache = new SourceCache({ load: (ref) => sources.findByRef(ref), loadById: (id) => sources.findById(id), now: Date.now });
  const versions = new WorkflowVersionCache({ load: (id) => workflows.currentVersion(id), now: Date.now });
  const sourceSync = new ChangeNoticeSync(SOURCE_CHANGES, { db, cache: recordingDrops(sourceCache, dropped), instanceId, logger });
  const workflowSync = new ChangeNoticeSync(WORKFLOW_CHANGES, { db, cache: recordingDrops(versions, dropped), instanceId, logger });
  const sources: SourceStore = new SourceStore(db, channels, now, sourceSync);
  const workflows: WorkflowStore = new WorkflowStore(db, new MemoryDefinitionStore(db, { now }), { now, changes: workflowSync });
  return { sources, sourceCache, workflows, versions, syncs: [sourceSync, workflowSync], dropped };
}

/** Instance `at`'s processor: only skips are expected of it, so it has nothing to run a workflow with. */
function processorOf(at: Instance): InboundEventProcessor {
  return new InboundEventProcessor({
    db: instances.db,
    sources: at.sourceCache,
    workflowVersions: at.versions,
    claimTimeoutMs: LONG_LEASE_MS,
    maxAttempts: 3,
    endRunMemory: async () => undefined,
    logger,
  } as unknown as ConstructorParameters<typeof InboundEventProcessor>[0]);
}

let counter = 0;

/** A source on instance `a` whose default is a new workflow, both already in instance `b`'s caches (as a busy instance has them). */
async function sourceKnownToB() {
  counter += 1;
  const workflow = await a.workflows.create({ name: `Workflow ${counter}`, yaml: YAML }, undefined);
  const source = await a.sources.create({ name: `Source ${counter}`, channel: 'sample', defaultWorkflowId: workflow.id });
  await eventually(() => b.dropped.includes(workflow.id) && b.dropped.includes(source.ref), 'instance b heard of the creations');
  assert.equal((await b.sourceCache.getById(source.id))?.active, true);
  assert.equal(await b.versions.currentVersion(workflow.id), 1);
  b.dropped.length = 0;
  return { source, workflow };
}

/** Stores an event of the source, claims it on instance `b` and takes it to its end there; returns its outcome. */
async function claimOnB(sourceId: string): Promise<{ status: string; reason: string | null }> {
  counter += 1;
  await instances.db('inbound_events').insert({ source_id: sourceId, event_id: `event-${counter}`, sender_foreign_id: 'ada', event: JSON.stringify({ eventId: `event-${counter}` }) });
  const [event] = await claimAll(instances.db);
  assert.ok(event, 'the event was claimed');
  await processorOf(b).process(event, { handoff: false });
  return instances.db('inbound_events').where({ id: event.id }).first('status', 'reason');
}

test('an event claimed right after its source was deactivated on another instance is skipped', async () => {
  const { source } = await sourceKnownToB();
  await a.sources.update(source.id, { active: false }, () => []);
  await eventually(() => b.dropped.includes(source.ref), 'instance b heard of the deactivation');
  assert.deepEqual(await claimOnB(source.id), { status: 'skipped', reason: 'source inactive' });
});

test('an event claimed right after its workflow was deleted on another instance is skipped', async () => {
  const { source, workflow } = await sourceKnownToB();
  await a.workflows.delete(workflow.id);
  await eventually(() => b.dropped.includes(workflow.id), 'instance b heard of the deletion');
  assert.deepEqual(await claimOnB(source.id), { status: 'skipped', reason: `workflow ${workflow.id} does not exist` });
});

test('a skip is never decided on a stale copy: a source reactivated where no notice reached the cache is read again, and its event goes on', async () => {
  const { source } = await sourceKnownToB();
  await a.sources.update(source.id, { active: false }, () => []);
  await eventually(() => b.dropped.includes(source.ref), 'instance b heard of the deactivation');
  assert.equal((await b.sourceCache.getById(source.id))?.active, false, 'instance b now holds the inactive copy');
  // Reactivated in SQL: no notice is sent, as when a listener's connection was lost unnoticed.
  await instances.db('sources').where({ id: source.id }).update({ active: true });
  const outcome = await claimOnB(source.id);
  assert.notEqual(outcome.status, 'skipped', `the event was skipped on a stale copy: ${outcome.reason}`);
  assert.equal((await b.sourceCache.getById(source.id))?.active, true, 'the fresh row replaced the stale copy');
});
