import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, test } from 'node:test';
import pino from 'pino';
import { ClaimHeartbeat } from '../../host/dispatch/claim-heartbeat.ts';
import { InboundEventProcessor } from '../../host/dispatch/inbound-event-processor.ts';
import { claimAll } from '../support/claim-events.ts';
import { runLookups } from '../support/run-lookups.ts';
import { createTestDatabase, type TestDatabase } from '../support/test-database.ts';

const logger = pino({ level: 'silent' });
let database: TestDatabase;
let sourceId: string;
before(async () => {
  database = await createTestDatabase();
  const [workflow] = await database.db('workflows').insert({ name: 'Slow', current_version: 1 }).returning('id');
  [{ id: sourceId }] = await database.db('sources')
    .insert({ ref: 'ref-heartbeat', name: 'Platform', channel: 'sample', settings: '{}', default_workflow_id: workflow.id })
    .returning('id');
});
after(() => database.close());

async function insertEvent(eventId: string, fields: Record<string, unknown> = {}): Promise<string> {
  const [row] = await database.db('inbound_events')
    .insert({ source_id: sourceId, event_id: eventId, sender_foreign_id: `sender-${eventId}`, event: JSON.stringify({ eventId }), ...fields })
    .returning('id');
  return row.id;
}

const claimAgeMs = async (id: string) =>
  Number((await database.db('inbound_events').where({ id }).first(database.db.raw('extract(epoch from now() - claimed_at) * 1000 AS age'))).age);

test('held claims are renewed every interval, only under their own token, and no more once released', async (t) => {
  const heartbeat = new ClaimHeartbeat(database.db, 50, logger);
  const token = '00000000-0000-4000-8000-0000000000a1';
  const held = await insertEvent('beat-held', { status: 'running', claim_token: token, claimed_at: new Date(Date.now() - 60_000) });
  const taken = await insertEvent('beat-taken', { status: 'running', claim_token: '00000000-0000-4000-8000-0000000000a2', claimed_at: new Date(Date.now() - 60_000) });
  // Left to a claim, these long-unrenewed events would be taken over: they go with the test.
  t.after(() => database.db('inbound_events').whereIn('id', [held, taken]).delete());
  heartbeat.hold(held, token);
  heartbeat.hold(taken, '00000000-0000-4000-8000-0000000000ff'); // another attempt took it over meanwhile
  await sleep(200);
  assert.ok((await claimAgeMs(held)) < 1_000, 'renewed');
  assert.ok((await claimAgeMs(taken)) > 50_000, 'a claim whose token changed hands is not renewed');

  heartbeat.release(held);
  heartbeat.release(taken);
  // A renewal already under way when released (a busy machine) still lands: wait it out first.
  await heartbeat.settled();
  await database.db('inbound_events').where({ id: held }).update({ claimed_at: new Date(Date.now() - 60_000) });
  await sleep(150);
  assert.ok((await claimAgeMs(held)) > 50_000, 'released: no longer renewed');
});

test('a run that outlasts the lease keeps its event: its claim is renewed, so another instance does not take it over', async () => {
  const leaseMs = 500;
  // The run goes on until the test ends it, well past the lease.
  let endRun!: () => void;
  const runEnds = new Promise<void>((resolve) => (endRun = resolve));
  const processor = new InboundEventProcessor({
    db: database.db,
    claimTimeoutMs: leaseMs,
    maxAttempts: 3,
    endRunMemory: async () => undefined,
    ...runLookups(database.db),
    logger,
    workflows: { versionDocument: async () => ({}) },
    conversations: { enter: async () => ({ subscriber: { id: 'sub-1', foreignId: 'u1' }, threadId: 'thread-1' }) },
    channels: { running: () => undefined },
    runner: { run: async () => (await runEnds, { status: 'completed', error: null }) },
  } as unknown as ConstructorParameters<typeof InboundEventProcessor>[0]);
  const id = await insertEvent('slow-run');
  const [row] = await claimAll(database.db, leaseMs);
  assert.equal(row?.id, id);

  const running = processor.process(row, { handoff: false });
  await sleep(leaseMs + 400);
  assert.deepEqual(await claimAll(database.db, leaseMs), [], 'claimed once, 0.9 s ago, yet still held: another instance finds nothing to take over');
  endRun();
  await running;
  const event = await database.db('inbound_events').where({ id }).first();
  assert.deepEqual([event.status, event.attempts], ['done', 1]);
});

test('a renewal passes over a claim whose row another statement holds, and renews the rest without waiting for it', { timeout: 30_000 }, async (t) => {
  const heartbeat = new ClaimHeartbeat(database.db, 60_000, logger);
  const tokens = ['00000000-0000-4000-8000-0000000000b1', '00000000-0000-4000-8000-0000000000b2'];
  const [busy, free] = [await insertEvent('beat-busy', { status: 'running', claim_token: tokens[0], claimed_at: new Date(Date.now() - 60_000) }), await insertEvent('beat-free', { status: 'running', claim_token: tokens[1], claimed_at: new Date(Date.now() - 60_000) })];
  t.after(() => database.db('inbound_events').whereIn('id', [busy, free]).delete());
  heartbeat.hold(busy!, tokens[0]!);
  heartbeat.hold(free!, tokens[1]!);
  // As the statement finishing a group of events holds their rows until it commits.
  const finishing = await database.db.transaction();
  try {
    await finishing('inbound_events').where({ id: busy }).forUpdate().select('id');
    // Waiting for that row, while holding the one renewed before it, is how a renewal closed a
    // lock cycle with a finishing statement that took the same two rows the other way round.
    await heartbeat.beat();
    assert.ok((await claimAgeMs(free!)) < 10_000, 'the free claim is renewed');
    assert.ok((await claimAgeMs(busy!)) > 50_000, 'the held one is left to the next beat');
  } finally {
    await finishing.rollback();
    heartbeat.release(busy!);
    heartbeat.release(free!);
  }
});
