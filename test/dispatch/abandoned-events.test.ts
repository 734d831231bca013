import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, afterEach, before, test } from 'node:test';
import pino from 'pino';
import { InboundEventProcessor } from '../../host/dispatch/inbound-event-processor.ts';
import { claimAll, LONG_LEASE_MS } from '../support/claim-events.ts';
import { runLookups } from '../support/run-lookups.ts';
import { createTestDatabase, type TestDatabase } from '../support/test-database.ts';

// Events another instance left behind, and the conversations they hold, as the claim sees them:
// each test plays the instances by hand through the real claim statement.
let database: TestDatabase;
let sourceId: string;
before(async () => {
  database = await createTestDatabase();
  [{ id: sourceId }] = await database.db('sources').insert({ ref: 'ref-abandoned', name: 'Platform', channel: 'sample', settings: '{}' }).returning('id');
});
// Each test starts with an empty inbox: a claim sees every source's events.
afterEach(async () => {
  await database.db('workflow_runs').delete();
  await database.db('inbound_events').delete();
});
after(() => database.close());

async function insertEvent(eventId: string, fields: Record<string, unknown> = {}): Promise<string> {
  const [row] = await database.db('inbound_events')
    .insert({ source_id: sourceId, event_id: eventId, sender_foreign_id: `sender-${eventId}`, event: JSON.stringify({ eventId }), ...fields })
    .returning('id');
  return row.id;
}

/** What a live instance's claim looks like: running, renewed `ageMs` ago. */
function claimedAgo(ageMs: number): Record<string, unknown> {
  return { status: 'running', attempts: 1, claim_token: randomUUID(), claimed_at: database.db.raw('now() - make_interval(secs => ?)', [ageMs / 1000]) };
}

const claimedIds = async () => (await claimAll(database.db)).map((event) => event.id);

/** Runs whose run-scope memory the processor removed. */
const endedRuns: string[] = [];

/** A processor with only what these events need: their source has no workflow, so each is skipped once it runs. */
function processor(maxAttempts = 3): InboundEventProcessor {
  return new InboundEventProcessor({
    db: database.db,
    claimTimeoutMs: LONG_LEASE_MS,
    maxAttempts,
    endRunMemory: async (runId: string) => void endedRuns.push(runId),
    ...runLookups(database.db),
    logger: pino({ level: 'silent' }),
  } as unknown as ConstructorParameters<typeof InboundEventProcessor>[0]);
}

test('an event whose last attempt died with its host is taken over as a dead letter, and its conversation goes on', async () => {
  const id = await insertEvent('last-attempt', { ...claimedAgo(LONG_LEASE_MS + 1_000), attempts: 2, sender_foreign_id: 'u1' });
  const next = await insertEvent('after-last-attempt', { sender_foreign_id: 'u1' });

  const claimed = await claimAll(database.db);
  assert.deepEqual(claimed.map((event) => [event.id, event.attempts]), [[id, 3]], 'taken over alone, its claim counted as a third attempt');
  const { next: handedOn } = await processor(2).process(claimed[0]!, { handoff: true });

  const event = await database.db('inbound_events').where({ id }).first();
  assert.equal(event.status, 'failed');
  assert.match(event.reason, /^BOT_ERR_INBOUND_EVENT_ABANDONED: .*stopped during the last attempt/);
  assert.equal(handedOn?.id, next, "the dead letter frees its conversation: the next message is handed on");
});

test("a live instance's claim is respected, with its conversation's later events; an expired one is taken over, and the runs it left are ended", async () => {
  // 50 s into a 60 s lease: about to expire, but its instance may still be at work.
  const token = randomUUID();
  const id = await insertEvent('claimed', { ...claimedAgo(50_000), claim_token: token, sender_foreign_id: 'held' });
  const later = await insertEvent('after-claimed', { sender_foreign_id: 'held' });
  const [run] = await database.db('workflow_runs')
    .insert({ workflow_id: '00000000-0000-4000-8000-000000000000', workflow_version: 1, mode: 'live', owner_id: 'o', status: 'running', input: '{}', inbound_event_id: id })
    .returning('id');
  assert.deepEqual(await claimedIds(), [], 'neither the event nor the next message of its conversation');
  assert.equal((await database.db('inbound_events').where({ id }).first()).claim_token, token);

  // Time passes: the claim was not renewed for longer than the lease (its instance died).
  await database.db('inbound_events').where({ id }).update({ claimed_at: database.db.raw(`now() - interval '61 seconds'`) });
  const claimed = await claimAll(database.db);
  assert.deepEqual(claimed.map((event) => event.id), [id], 'the event, not the later one');
  const [takeover] = claimed;
  assert.notEqual(takeover!.claim_token, token, 'under a claim of its own');
  assert.deepEqual([takeover!.attempts, takeover!.abandoned_run_ids, takeover!.has_earlier_runs], [2, [run.id], true]);
  const abandoned = await database.db('workflow_runs').where({ id: run.id }).first();
  assert.equal(abandoned.status, 'failed');
  assert.equal(abandoned.error.code, 'BOT_ERR_WORKFLOW_RUN_ABANDONED');
  assert.ok(abandoned.finished_at);

  endedRuns.length = 0;
  await processor().process(takeover!, { handoff: false });
  assert.deepEqual(endedRuns, [run.id], "the run's run-scope memory is removed");
  const event = await database.db('inbound_events').where({ id }).first();
  assert.deepEqual([event.status, event.claim_token], ['skipped', null]);
  assert.deepEqual(await claimedIds(), [later], 'then its conversation goes on');
});

test('an attempt that could not record its outcome (the database went away) keeps its claim: nothing of its conversation runs until the lease runs out, then it is taken over', async () => {
  const id = await insertEvent('outcome-lost', { sender_foreign_id: 'lost' });
  const later = await insertEvent('after-outcome-lost', { sender_foreign_id: 'lost' });
  const [row] = await claimAll(database.db);
  assert.equal(row?.id, id);
  // The outcome cannot be written while the column it goes to is away: as when the database
  // restarts between the run and its record, the claim stays behind, young.
  await database.db.raw('ALTER TABLE inbound_events RENAME COLUMN reason TO reason_away');
  try {
    await assert.rejects(processor().process(row, { handoff: true }), { code: '42703' }); // undefined_column
  } finally {
    await database.db.raw('ALTER TABLE inbound_events RENAME COLUMN reason_away TO reason');
  }
  const left = await database.db('inbound_events').where({ id }).first();
  assert.deepEqual([left.status, left.claim_token], ['running', row.claim_token]);
  assert.deepEqual(await claimedIds(), [], 'the conversation stays held: its later message does not overtake');

  await database.db('inbound_events').where({ id }).update({ claimed_at: database.db.raw(`now() - interval '61 seconds'`) });
  const [again] = await claimAll(database.db);
  assert.deepEqual([again?.id, again?.attempts], [id, 2]);
  await processor().process(again!, { handoff: false });
  assert.equal((await database.db('inbound_events').where({ id }).first()).status, 'skipped');
  assert.deepEqual(await claimedIds(), [later]);
});

test("a message running under another instance holds its conversation's later ones back until it ends, then they run one at a time in order; other conversations go on", async () => {
  const running = await insertEvent('held-first', { ...claimedAgo(0), sender_foreign_id: 'held' });
  const later = await insertEvent('held-second', { sender_foreign_id: 'held' });
  const elsewhere = await insertEvent('held-other', { sender_foreign_id: 'not-held' });
  assert.deepEqual(await claimedIds(), [elsewhere], 'another conversation is not held');

  // The other instance finishes it; a third message of the conversation arrives meanwhile.
  await database.db('inbound_events').where({ id: running }).update({ status: 'done', claim_token: null });
  const newest = await insertEvent('held-third', { sender_foreign_id: 'held' });
  const claimed = await claimAll(database.db);
  assert.deepEqual(claimed.map((event) => [event.id, event.attempts]), [[later, 1]], 'the oldest waiting message alone, none of its attempts spent while it waited');
  const { next } = await processor().process(claimed[0]!, { handoff: true });
  assert.equal((await database.db('inbound_events').where({ id: later }).first()).status, 'skipped');
  assert.equal(next?.id, newest, 'its end hands the next message on');
});

test('an earlier message still queued waits while a later one of its conversation runs (two deliveries committed out of order)', async () => {
  const earlier = await insertEvent('racing-first', { sender_foreign_id: 'racing' });
  const running = await insertEvent('racing-second', { ...claimedAgo(0), sender_foreign_id: 'racing' });
  assert.deepEqual(await claimedIds(), []);
  await database.db('inbound_events').where({ id: running }).update({ status: 'done', claim_token: null });
  assert.deepEqual(await claimedIds(), [earlier]);
});

test('events without a sender need no order: each is claimed at once, and only once', async () => {
  const ids = [await insertEvent('no-sender-1', { sender_foreign_id: null }), await insertEvent('no-sender-2', { sender_foreign_id: null })];
  assert.deepEqual((await claimedIds()).sort(), ids.sort());
  assert.deepEqual(await claimedIds(), [], 'claimed already');
});
