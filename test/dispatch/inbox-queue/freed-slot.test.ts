import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import pino from 'pino';
import { Dispatcher } from '../../../host/dispatch/dispatcher.ts';
import { createTestDatabase, type TestDatabase } from '../../support/test-database.ts';
import { insertSource, queueFlood } from './queued-events.ts';
import { RecordingProcessor, RunLog } from './recording-processor.ts';

// When a conversation runs out of events, its slot claims the next waiting conversation at once:
// with more conversations queued than slots, none waits for the poll (here once a minute, past
// every deadline of this file).

const LEASE_MS = 30_000;

let database: TestDatabase;
let sourceId: string;
before(async () => {
  database = await createTestDatabase();
  sourceId = await insertSource(database.db);
});
after(() => database.close());

// Catches a dispatcher that asks for a claim when a conversation ends but counts the ending
// conversation's slot as still taken: with every slot ending so, the queued conversations wait
// for the poll (BOT_DISPATCH_POLL_INTERVAL_MS, 2 s by default).
test('with one slot, each conversation that ends hands the slot to the next queued conversation, none waiting for a timer', async (t) => {
  await queueFlood(database.db, sourceId, { count: 6, conversations: 3, prefix: 'one-slot' });
  const log = new RunLog();
  const processor = new RecordingProcessor(database.db, { name: 'dispatcher', log, runMs: () => 2, leaseMs: LEASE_MS });
  const dispatcher = await Dispatcher.start({ db: database.db, processor, concurrency: 1, pollIntervalMs: 60_000, leaseMs: LEASE_MS, logger: pino({ level: 'silent' }) });
  t.after(() => dispatcher.stop());

  await log.waitFor(() => log.finished.length === 6, 'all six events', 5_000);
  assert.deepEqual([dispatcher.claimed.poll, dispatcher.claimed.retry], [0, 0], JSON.stringify(dispatcher.claimed));
  const conversations = log.finished.map((run) => run.event.sender_foreign_id);
  assert.deepEqual(conversations, ['one-slot-00000', 'one-slot-00000', 'one-slot-00001', 'one-slot-00001', 'one-slot-00002', 'one-slot-00002']);
});
