import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import pino from 'pino';
import { enqueueInboundEvents } from '../../host/dispatch/enqueue-inbound-events.ts';
import { failAbandonedEvents } from '../../host/dispatch/fail-abandoned-events.ts';
import { InboundEventProcessor } from '../../host/dispatch/inbound-event-processor.ts';
import { createTestDatabase, type TestDatabase } from '../support/test-database.ts';

let database: TestDatabase;
let sourceId: string;
before(async () => {
  database = await createTestDatabase();
  [{ id: sourceId }] = await database.db('sources').insert({ ref: 'ref-abandoned', name: 'Platform', channel: 'sample', settings: '{}' }).returning('id');
});
after(() => database.close());

async function insertEvent(eventId: string, fields: Record<string, unknown> = {}): Promise<string> {
  const [row] = await database.db('inbound_events')
    .insert({ source_id: sourceId, event_id: eventId, sender_foreign_id: `sender-${eventId}`, event: JSON.stringify({ eventId }), ...fields })
    .returning('id');
  return row.id;
}

/** A processor with only what claiming needs: the events here have no workflow, so they are skipped once claimed. */
function processorWithClaimTimeout(claimTimeoutMs: number): InboundEventProcessor {
  return new InboundEventProcessor({
    db: database.db,
    claimTimeoutMs,
    endRunMemory: async (runId: string) => database.db('memory_records').where({ run_id: runId }).delete(),
    logger: pino({ level: 'silent' }),
  } as unknown as ConstructorParameters<typeof InboundEventProcessor>[0]);
}

test('an event whose last attempt died with its host becomes a dead letter, and its spent job goes', async () => {
  const id = await insertEvent('last-attempt', { status: 'running', attempts: 2 });
  await enqueueInboundEvents(database.db, [{ id, source_id: sourceId, sender_foreign_id: 'u1' }], 2);
  // What graphile-worker leaves after the lease reclaim frees a job whose attempts are all used.
  await database.db.raw('UPDATE graphile_worker._private_jobs SET attempts = max_attempts, locked_at = NULL, locked_by = NULL');
  const untouched = await insertEvent('still-queued');
  await enqueueInboundEvents(database.db, [{ id: untouched, source_id: sourceId, sender_foreign_id: 'u2' }], 2);

  assert.equal(await failAbandonedEvents(database.db), 1);
  const row = await database.db('inbound_events').where({ id }).first();
  assert.equal(row.status, 'failed');
  assert.match(row.reason, /stopped during the last attempt/);
  const { rows } = await database.db.raw(`SELECT payload->>'inboundEventId' AS id FROM graphile_worker._private_jobs`);
  assert.deepEqual(rows.map((job: { id: string }) => job.id), [untouched], 'only the spent job went');
});

test("a live instance's claim is respected; an expired one is taken over, and the runs it left are ended", async () => {
  const processor = processorWithClaimTimeout(60_000);
  const live = await insertEvent('claimed-live', { status: 'running', claimed_at: new Date(), claim_token: '00000000-0000-4000-8000-000000000001' });
  await assert.rejects(processor.process(live, { number: 1, maxAttempts: 3 }), { code: 'BOT_ERR_INBOUND_EVENT_BUSY' });
  assert.equal((await database.db('inbound_events').where({ id: live }).first()).claim_token, '00000000-0000-4000-8000-000000000001');

  const stale = await insertEvent('claimed-stale', { status: 'running', claimed_at: new Date(Date.now() - 3_600_000) });
  const [run] = await database.db('workflow_runs')
    .insert({ workflow_id: '00000000-0000-4000-8000-000000000000', workflow_version: 1, mode: 'live', owner_id: 'o', status: 'running', input: '{}', inbound_event_id: stale })
    .returning('id');
  // The source row has no workflow: the event is skipped, which is enough to see the takeover.
  await processor.process(stale, { number: 2, maxAttempts: 3 });
  const event = await database.db('inbound_events').where({ id: stale }).first();
  assert.deepEqual([event.status, event.claim_token], ['skipped', null]);
  const abandoned = await database.db('workflow_runs').where({ id: run.id }).first();
  assert.equal(abandoned.status, 'failed');
  assert.equal(abandoned.error.code, 'BOT_ERR_WORKFLOW_RUN_ABANDONED');
});

test("a claim about to expire (its host's lease ran out first) is waited for, not failed: a failed job would let the conversation's later messages run first", async () => {
  const processor = processorWithClaimTimeout(1_000);
  const expiring = await insertEvent('claimed-expiring', { status: 'running', claimed_at: new Date(Date.now() - 700), claim_token: '00000000-0000-4000-8000-000000000002' });
  await processor.process(expiring, { number: 2, maxAttempts: 3 });
  const event = await database.db('inbound_events').where({ id: expiring }).first();
  assert.deepEqual([event.status, event.claim_token], ['skipped', null], 'taken over once the claim aged out, in the same attempt');
});

test("an attempt that could not record its outcome (the database went away) leaves its claim, and this instance's next attempt takes it over at once", async () => {
  const processor = processorWithClaimTimeout(60_000);
  const id = await insertEvent('outcome-lost');
  // The outcome cannot be written while the column it goes to is away: as when the database
  // restarts between the run and its record, the claim stays behind, young.
  await database.db.raw('ALTER TABLE inbound_events RENAME COLUMN reason TO reason_away');
  try {
    await assert.rejects(processor.process(id, { number: 1, maxAttempts: 3 }));
  } finally {
    await database.db.raw('ALTER TABLE inbound_events RENAME COLUMN reason_away TO reason');
  }
  assert.equal((await database.db('inbound_events').where({ id }).first()).status, 'running');

  // Failing as busy instead would free the conversation's queue for its later messages.
  await processor.process(id, { number: 2, maxAttempts: 3 });
  const event = await database.db('inbound_events').where({ id }).first();
  assert.deepEqual([event.status, event.claim_token], ['skipped', null]);
});

test('a message running under another instance holds its conversation’s later ones back until it ends; the hold then counts for nothing and is swept', async () => {
  const processor = processorWithClaimTimeout(60_000);
  const running = await insertEvent('held-first', { status: 'running', claimed_at: new Date(), claim_token: '00000000-0000-4000-8000-000000000003', sender_foreign_id: 'held' });
  const later = await insertEvent('held-second', { sender_foreign_id: 'held' });
  const elsewhere = await insertEvent('held-other', { sender_foreign_id: 'not-held' });

  await assert.rejects(processor.process(running, { number: 1, maxAttempts: 3 }), { code: 'BOT_ERR_INBOUND_EVENT_BUSY' });
  assert.equal(await processor.process(later, { number: 1, maxAttempts: 3 }), 'behind-earlier-message');
  assert.equal((await database.db('inbound_events').where({ id: later }).first()).attempts, 0, 'waiting used no attempt');
  assert.equal(await processor.process(elsewhere, { number: 1, maxAttempts: 3 }), 'handled', 'another conversation is not held');

  // The other instance finishes it: its hold stays behind but counts for nothing. A message
  // arriving now (its job due at once) must still not go before the one held back until now.
  await database.db('inbound_events').where({ id: running }).update({ status: 'done', claim_token: null });
  const newest = await insertEvent('held-third', { sender_foreign_id: 'held' });
  assert.equal(await processor.process(newest, { number: 1, maxAttempts: 3 }), 'behind-earlier-message');
  assert.equal(await processor.process(later, { number: 1, maxAttempts: 3 }), 'handled');
  assert.equal(await processor.process(newest, { number: 1, maxAttempts: 3 }), 'handled');
  assert.equal((await database.db('inbound_events').where({ id: later }).first()).status, 'skipped');
  await failAbandonedEvents(database.db);
  assert.deepEqual(await database.db('conversation_holds').where({ inbound_event_id: running }).pluck('inbound_event_id'), [], 'swept');
});

test('an earlier message still running holds the next one back even without a hold (its job was failed or freed while its task went on)', async () => {
  const processor = processorWithClaimTimeout(60_000);
  const running = await insertEvent('running-first', { status: 'running', claimed_at: new Date(), claim_token: '00000000-0000-4000-8000-000000000004', sender_foreign_id: 'still-running' });
  const next = await insertEvent('running-second', { sender_foreign_id: 'still-running' });
  assert.equal(await processor.process(next, { number: 1, maxAttempts: 3 }), 'behind-earlier-message');
  await database.db('inbound_events').where({ id: running }).update({ status: 'done', claim_token: null });
  assert.equal(await processor.process(next, { number: 1, maxAttempts: 3 }), 'handled');
});
