import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { claimConversationHeads, claimInboundEvents } from '../../../host/dispatch/claim-inbound-events.ts';
import { finishInboundEvents } from '../../../host/dispatch/finish-inbound-events.ts';
import { createTestDatabase, type TestDatabase } from '../../support/test-database.ts';
import { insertSource, queueEvents, type QueuedEvent } from './queued-events.ts';

// Which event of a conversation may run next is one rule (bot_claimable_event), asked by the
// three statements that start events: the fair walk, the claim of announced conversations, and
// the hand-off to a finished event's successor. Each scenario is one conversation, and all three
// must answer it alike (the walk alone also takes over a claim whose instance died).

const LEASE_SECS = 60;
const STALE = LEASE_SECS * 2;

interface Scenario {
  name: string;
  events: QueuedEvent[];
  /** The index in `events` of the event that may run next; null: none may. */
  next: number | null;
  /** The walk's answer where it differs: it takes over a claim older than the lease. */
  walkTakesOver?: number;
}

const SCENARIOS: Scenario[] = [
  { name: 'the oldest of several queued events', events: [{ sender: 'c' }, { sender: 'c' }], next: 0 },
  { name: 'finished events are passed over', events: [{ sender: 'c', status: 'done' }, { sender: 'c' }], next: 1 },
  { name: 'the oldest waits for its retry: nothing, not the next', events: [{ sender: 'c', retryInSecs: 60 }, { sender: 'c' }], next: null },
  { name: 'a retry that is due', events: [{ sender: 'c', retryInSecs: -1 }, { sender: 'c' }], next: 0 },
  { name: 'an event runs under a live claim: nothing', events: [{ sender: 'c', status: 'running' }, { sender: 'c' }], next: null },
  { name: 'an event runs under a dead claim', events: [{ sender: 'c', status: 'running', claimedSecsAgo: STALE }, { sender: 'c' }], next: null, walkTakesOver: 0 },
  { name: 'a later event runs (committed out of order) under a live claim', events: [{ sender: 'c' }, { sender: 'c', status: 'running' }], next: null },
  { name: 'a later event runs under a dead claim', events: [{ sender: 'c' }, { sender: 'c', status: 'running', claimedSecsAgo: STALE }], next: null, walkTakesOver: 1 },
];

let database: TestDatabase;
let source: string;
before(async () => {
  database = await createTestDatabase();
  source = await insertSource(database.db);
});
after(() => database.close());
beforeEach(() => database.db('inbound_events').delete());

async function walk(): Promise<string | null> {
  const { events } = await claimInboundEvents(database.db, { limit: 10, leaseMs: LEASE_SECS * 1000, afterSourceId: null, cursors: new Map() });
  return events[0]?.id ?? null;
}

async function announced(ids: string[]): Promise<string | null> {
  const events = await claimConversationHeads(database.db, ids, [], 10);
  return events[0]?.id ?? null;
}

/** Finishes a live-claimed event queued before the scenario's events, asking for its successor. */
async function handedOn(finishing: { id: string; claim_token: string }): Promise<string | null> {
  const result = await finishInboundEvents(database.db).submit({ ...finishing, status: 'done', reason: null, retryInMs: null, handoff: true });
  assert.ok(result.recorded);
  return result.next?.id ?? null;
}

describe('one rule picks the event a conversation may run next', () => {
  for (const scenario of SCENARIOS) {
    test(scenario.name, async () => {
      const expectedOf = (ids: string[], index: number | null | undefined) => (index === null || index === undefined ? null : ids[index]!);

      const ids = await queueEvents(database.db, source, scenario.events);
      assert.equal(await announced(ids), expectedOf(ids, scenario.next), 'claim of an announced conversation');
      await database.db('inbound_events').delete();

      const walked = await queueEvents(database.db, source, scenario.events);
      assert.equal(await walk(), expectedOf(walked, scenario.walkTakesOver ?? scenario.next), 'the fair walk');
      await database.db('inbound_events').delete();

      // The hand-off: the same conversation behind an event of its own that finishes now. A
      // running event under a live claim, the one finishing, comes first; the unique index allows
      // one running event per conversation, so scenarios with one of their own are left out.
      if (scenario.events.some((event) => event.status === 'running')) return;
      const [finishing] = await queueEvents(database.db, source, [{ sender: 'c', status: 'running' }]);
      const behind = await queueEvents(database.db, source, scenario.events);
      const { claim_token } = await database.db('inbound_events').where({ id: finishing }).first('claim_token');
      assert.equal(await handedOn({ id: finishing!, claim_token }), expectedOf(behind, scenario.next), 'the hand-off');
    });
  }
});
