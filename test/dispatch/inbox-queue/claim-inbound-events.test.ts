import assert from 'node:assert/strict';
import { after, before, beforeEach, test } from 'node:test';
import { claimInboundEvents, type ClaimResult } from '../../../host/dispatch/claim-inbound-events.ts';
import { createTestDatabase, type TestDatabase } from '../../support/test-database.ts';
import { insertSource, queueEvents, queueFlood, type QueuedEvent } from './queued-events.ts';

// The claim statement alone, on rows written straight into the inbox: what it may claim, what it
// must leave, and in which order it serves sources and conversations.

let database: TestDatabase;
/** Sorts first among sources: the claim walks sources by id. */
let sourceA: string;
/** Sorts last. */
let sourceB: string;
before(async () => {
  database = await createTestDatabase();
  sourceA = await insertSource(database.db, '00000000-0000-4000-8000-00000000000a');
  sourceB = await insertSource(database.db, 'ffffffff-ffff-4fff-bfff-ffffffffffff');
});
after(() => database.close());
// The claim looks at every source's unfinished events: each test starts from an empty inbox.
beforeEach(() => database.db('inbound_events').delete());

const LEASE_MS = 60_000;

function claim(limit: number, from: { afterSourceId?: string | null; cursors?: Map<string, string> } = {}): Promise<ClaimResult> {
  return claimInboundEvents(database.db, { limit, leaseMs: LEASE_MS, afterSourceId: from.afterSourceId ?? null, cursors: from.cursors ?? new Map() });
}

/** Where the next claim goes on, as the Dispatcher keeps it. */
function nextFrom(result: ClaimResult): { afterSourceId: string | null; cursors: Map<string, string> } {
  const cursors = new Map(result.cursors.flatMap((cursor) => (cursor.conversation === null ? [] : [[cursor.sourceId, cursor.conversation] as const])));
  return { afterSourceId: result.events.at(-1)?.source_id ?? null, cursors };
}

function finish(ids: string[]): Promise<number> {
  return database.db('inbound_events').whereIn('id', ids).update({ status: 'done', claim_token: null });
}

const idsOf = (result: ClaimResult) => result.events.map((event) => event.id).sort();

// Catches a claim that runs a conversation's later events beside (or before) its oldest one.
test("claims only a conversation's oldest unfinished event, marked running under a new claim", async () => {
  const [, annSecond, annThird] = await queueEvents(database.db, sourceA, [{ sender: 'ann', status: 'done' }, { sender: 'ann' }, { sender: 'ann' }]);
  const [bob] = await queueEvents(database.db, sourceA, [{ sender: 'bob' }]);
  const result = await claim(10);
  assert.deepEqual(idsOf(result), [annSecond, bob].sort());
  const rows = await database.db('inbound_events').whereIn('id', [annSecond!, annThird!]).orderBy('seq').select('status', 'attempts', 'claim_token');
  assert.deepEqual(rows.map((row) => [row.status, row.attempts]), [['running', 1], ['queued', 0]]);
  assert.equal(rows[0].claim_token, result.events.find((event) => event.id === annSecond)!.claim_token);
});

// Catches a claim that checks only the oldest event's own status: two deliveries committed out of
// order let the later one run first, and the earlier one must then wait for it.
for (const running of ['earlier', 'later'] as const) {
  test(`a conversation whose ${running} event runs under a live claim gives nothing`, async () => {
    const events: QueuedEvent[] = [{ sender: 'ann' }, { sender: 'ann' }];
    events[running === 'earlier' ? 0 : 1] = { sender: 'ann', status: 'running' };
    await queueEvents(database.db, sourceA, events);
    const [bob] = await queueEvents(database.db, sourceA, [{ sender: 'bob' }]);
    assert.deepEqual(idsOf(await claim(10)), [bob]);
  });
}

// Catches a claim that skips an event waiting for its retry and runs the conversation's next one.
test('an event waiting for its retry holds its conversation back; other conversations are claimed', async () => {
  const [waiting] = await queueEvents(database.db, sourceA, [{ sender: 'ann', retryInSecs: 3_600, attempts: 1 }, { sender: 'ann' }]);
  const [bob] = await queueEvents(database.db, sourceA, [{ sender: 'bob' }]);
  assert.deepEqual(idsOf(await claim(10)), [bob]);
  await database.db('inbound_events').where({ id: waiting }).update({ retry_at: database.db.raw("now() - interval '1 second'") });
  const due = await claim(10);
  assert.deepEqual(idsOf(due), [waiting], 'once due, the retry goes first');
  assert.equal(due.events[0]!.attempts, 2);
});

// Catches a claim that never takes over (a dead instance's events would stay running forever) or
// that takes over a live one.
test('a running event whose claim is older than the lease is taken over: one more attempt, a new claim token', async () => {
  const [stale] = await queueEvents(database.db, sourceA, [{ sender: 'ann', status: 'running', claimedSecsAgo: 3_600 }, { sender: 'ann' }]);
  await queueEvents(database.db, sourceA, [{ sender: 'bob', status: 'running', claimedSecsAgo: LEASE_MS / 1000 - 30 }]);
  const before = await database.db('inbound_events').where({ id: stale }).first();
  const result = await claim(10);
  assert.deepEqual(idsOf(result), [stale], 'the stale one only; the young claim is respected');
  const after = await database.db('inbound_events').where({ id: stale }).first();
  assert.equal(after.status, 'running');
  assert.equal(after.attempts, before.attempts + 1);
  assert.notEqual(after.claim_token, before.claim_token);
  assert.equal(result.events[0]!.claim_token, after.claim_token);
  assert.ok(after.claimed_at > before.claimed_at, 'the claim is renewed');
});

// Catches a claim without row locks (or one that waits on them instead of skipping): two
// instances claiming at once would both run an event, or two events of one conversation.
test('two claims at once never return the same event nor two events of one conversation', async () => {
  const conversations = 30;
  await queueFlood(database.db, sourceA, { count: conversations * 5, conversations, prefix: 'race' });
  const claimers = [nextFrom({ events: [], cursors: [] }), nextFrom({ events: [], cursors: [] })];
  const seen = new Set<string>();
  const lastSeq = new Map<string, number>();
  for (let round = 0; seen.size < conversations * 5; round += 1) {
    assert.ok(round < 500, `no progress after ${round} rounds`);
    const results = await Promise.all(claimers.map((from) => claim(8, from)));
    results.forEach((result, i) => (claimers[i] = nextFrom(result)));
    const events = results.flatMap((result) => result.events);
    const senders = events.map((event) => event.sender_foreign_id!);
    assert.equal(new Set(senders).size, senders.length, `round ${round}: one event per conversation`);
    for (const event of events) {
      assert.ok(!seen.has(event.id), `${event.id} claimed twice`);
      seen.add(event.id);
    }
    const rows: { id: string; sender_foreign_id: string; seq: string }[] = await database.db('inbound_events').whereIn('id', events.map((event) => event.id)).select('id', 'sender_foreign_id', 'seq');
    for (const row of rows) {
      assert.ok(Number(row.seq) > (lastSeq.get(row.sender_foreign_id) ?? 0), `${row.sender_foreign_id} in arrival order`);
      lastSeq.set(row.sender_foreign_id, Number(row.seq));
    }
    await finish(events.map((event) => event.id));
  }
});

// Catches a claim that walks the index in order: source A's 500 conversations would fill it.
test("a source with one event is served in the same claim as another source's 500 conversations", async () => {
  await queueFlood(database.db, sourceA, { count: 500, conversations: 500, prefix: 'busy' });
  const [newcomer] = await queueEvents(database.db, sourceB, [{ sender: 'newcomer' }]);
  const result = await claim(4);
  assert.equal(result.events.length, 4);
  assert.ok(idsOf(result).includes(newcomer!), 'source B takes its turn in the first round');
});

// Catches a claim that ignores `afterSourceId`: with one free slot, the first source would always win.
test('with one free slot, successive claims take the sources in turn', async () => {
  const sourceC = await insertSource(database.db, '88888888-8888-4888-8888-888888888888');
  for (const source of [sourceA, sourceC, sourceB]) await queueFlood(database.db, source, { count: 20, conversations: 20, prefix: `turns-${source}` });
  let from = nextFrom({ events: [], cursors: [] });
  const served: string[] = [];
  for (let i = 0; i < 6; i += 1) {
    const result = await claim(1, from);
    served.push(result.events[0]!.source_id);
    from = nextFrom(result);
  }
  assert.deepEqual(served, [sourceA, sourceC, sourceB, sourceA, sourceC, sourceB]);
});

// Catches a claim that ignores the cursors: each claim would start again with the first
// conversations, which always have a next event, and the later ones would wait.
test("successive claims with the returned cursors serve every conversation of a source before any again", async () => {
  await queueFlood(database.db, sourceA, { count: 36, conversations: 12, prefix: 'turn' });
  let from = nextFrom({ events: [], cursors: [] });
  const served: string[] = [];
  while (served.length < 36) {
    const result = await claim(4, from);
    assert.equal(result.events.length, 4);
    served.push(...result.events.map((event) => event.sender_foreign_id!));
    await finish(result.events.map((event) => event.id));
    from = nextFrom(result);
  }
  for (let lap = 0; lap < 3; lap += 1) {
    assert.equal(new Set(served.slice(lap * 12, lap * 12 + 12)).size, 12, `lap ${lap} serves each conversation once: ${served.join(' ')}`);
  }
});

// Catches events without a sender grouped into one conversation (by a NULL or empty key).
test('an event without a sender is a conversation of its own: claimable beside others without one', async () => {
  await queueEvents(database.db, sourceA, [{ sender: null, status: 'running' }]);
  const free = await queueEvents(database.db, sourceA, [{ sender: null }, { sender: null }]);
  assert.deepEqual(idsOf(await claim(10)), free.sort());
});

// Catches a walk without a budget (one statement would grow with the backlog) and a cursor that
// does not carry the walk on (the claimable conversation behind the busy ones would never be reached).
test('past 2,000 busy conversations the claim stops and says more; the next claim from its cursor reaches the one behind them', async () => {
  await queueFlood(database.db, sourceA, { count: 2_100, conversations: 2_100, prefix: 'busy', running: true });
  const [behind] = await queueEvents(database.db, sourceA, [{ sender: 'zzz-behind' }]);
  const first = await claim(4);
  assert.deepEqual(first.events, []);
  const cursor = first.cursors.find((c) => c.sourceId === sourceA);
  assert.equal(cursor?.more, true);
  assert.match(cursor!.conversation!, /^busy-/);
  const second = await claim(4, nextFrom(first));
  assert.deepEqual(idsOf(second), [behind]);
});
