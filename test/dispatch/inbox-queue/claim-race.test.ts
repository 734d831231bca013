import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { claimInboundEvents } from '../../../host/dispatch/claim-inbound-events.ts';
import { createTestDatabase, type TestDatabase } from '../../support/test-database.ts';
import { insertSource } from './queued-events.ts';

// Two deliveries of one conversation committed out of their arrival order, each seen first by
// another instance's claim: without the unique running index both claims would succeed and the
// conversation's two events would run at once, the later one first.

let database: TestDatabase;
let sourceId: string;
before(async () => {
  database = await createTestDatabase();
  sourceId = await insertSource(database.db);
});
after(() => database.close());

const request = { limit: 4, leaseMs: 60_000, afterSourceId: null, cursors: new Map<string, string>() };

function eventRow(eventId: string) {
  return { source_id: sourceId, event_id: eventId, sender_foreign_id: 'ola', event: JSON.stringify({ eventId }) };
}

test('of two claims racing for one conversation, the one that commits second fails whole and claims nothing', async () => {
  // The earlier delivery takes its seq first but commits last.
  const earlierDelivery = await database.db.transaction();
  await earlierDelivery('inbound_events').insert(eventRow('earlier'));
  await database.db('inbound_events').insert(eventRow('later'));

  // Instance A sees only the later event and claims it, in a transaction not yet committed.
  const claimA = await database.db.transaction();
  const byA = await claimInboundEvents(claimA, request);
  assert.deepEqual(byA.events.map((event) => event.event.eventId), ['later']);
  await earlierDelivery.commit();

  // Instance B sees the earlier event as the oldest and the later one still queued: it picks the
  // earlier one, then waits on A's row in the unique index.
  const byB = claimInboundEvents(database.db, request).then(
    () => undefined,
    (error: unknown) => error as { code?: string; constraint?: string },
  );
  await new Promise((resolve) => setTimeout(resolve, 100));
  await claimA.commit();
  const refusal = await byB;
  assert.equal(refusal?.code, '23505', 'B\'s claim fails');
  assert.equal(refusal?.constraint, 'inbound_events_running_idx');

  const rows = await database.db('inbound_events').orderBy('seq').select('event_id', 'status', 'attempts');
  assert.deepEqual(rows, [
    { event_id: 'earlier', status: 'queued', attempts: 0 },
    { event_id: 'later', status: 'running', attempts: 1 },
  ], 'one event of the conversation runs; the other did not spend an attempt');
  assert.deepEqual((await claimInboundEvents(database.db, request)).events, [], 'claimed again, B finds the conversation busy');
});
