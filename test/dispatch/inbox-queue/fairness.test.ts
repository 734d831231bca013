import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import pino from 'pino';
import { Dispatcher } from '../../../host/dispatch/dispatcher.ts';
import { insertInboxRows } from '../../../host/inbox/insert-inbox-rows.ts';
import { createTestDatabase, type TestDatabase } from '../../support/test-database.ts';
import { insertSource, queueFlood } from './queued-events.ts';
import { RecordingProcessor, RunLog } from './recording-processor.ts';

// A flood of 10,000 queued events from one source must not hold a new subscriber of another
// source back: its event is claimed within the next claim or two of each slot, so while it waits
// each slot starts at most two flood events. Counted in events started, not in milliseconds. The
// one wait not counted in events is the notice's way from the commit to the dispatcher, so each
// flood event takes RUN_MS: long beside that trip even on a loaded machine (at 3 ms, a CI run
// under load once saw 12 flood events start before the notice arrived).
const RUN_MS = 25;

const CONCURRENCY = 4;
const FLOOD = 10_000;
/** Flood events that may start between the newcomer's commit and its own start: two per slot. */
const MOST_FLOOD_EVENTS_BEFORE = 2 * CONCURRENCY;
const LEASE_MS = 30_000;

let database: TestDatabase;
let flooder: string;
let newcomer: string;
before(async () => {
  database = await createTestDatabase();
  flooder = await insertSource(database.db);
  newcomer = await insertSource(database.db);
});
after(() => database.close());

/** The newcomer's message, committed through the inbox's own statement, whose NOTIFY wakes the dispatcher. */
async function commitNewcomerEvent(eventId: string): Promise<void> {
  const event = { kind: 'message' as const, channelName: 'sample', rawEvent: {}, channelAttributes: {}, occurredAt: new Date().toISOString(), eventId, senderForeignId: 'newcomer' };
  assert.deepEqual(await insertInboxRows(database.db, [{ sourceId: newcomer, workflowId: undefined, events: [event], receivedAt: new Date() }], true), [1]);
}

const cases = [
  // The flood's one conversation fills one slot. Catches a dispatcher that does not claim for a
  // new event while its slots run the flood (a notice missed, or claims only once it is idle):
  // the newcomer would wait for the poll or for the flood to drain.
  { conversations: 1 },
  // Catches a dispatcher whose slots stay with the flooding source's conversations (each handing
  // its next event on to itself) while another source waits: the newcomer must get the next slot
  // that frees, not the first one whose conversation ran out of events.
  { conversations: 1_000 },
];

for (const { conversations } of cases) {
  test(`a new subscriber on another source is served within a claim or two of a 10,000-event flood in ${conversations} conversation(s)`, async (t) => {
    await database.db('inbound_events').delete();
    await queueFlood(database.db, flooder, { count: FLOOD, conversations, prefix: `flood${conversations}` });
    const log = new RunLog();
    const processor = new RecordingProcessor(database.db, { name: 'dispatcher', log, runMs: () => RUN_MS, leaseMs: LEASE_MS });
    // Polls once a minute: only the inbox's notice and freed slots bring the newcomer's event.
    const dispatcher = await Dispatcher.start({ db: database.db, processor, concurrency: CONCURRENCY, pollIntervalMs: 60_000, leaseMs: LEASE_MS, logger: pino({ level: 'silent' }) });
    t.after(() => dispatcher.stop());
    // Every slot the flood can fill is busy with it.
    await log.waitFor(() => log.finished.length >= CONCURRENCY, 'the dispatcher to take the flood up');
    assert.equal(dispatcher.running, Math.min(conversations, CONCURRENCY));

    await commitNewcomerEvent(`newcomer-${conversations}`);
    const committedAt = log.runs.length;
    const newcomerRun = () => log.runs.findIndex((run) => run.event.source_id === newcomer);
    // Waits no longer than the bound allows (a starved newcomer would wait for most of the flood).
    await log.waitFor(() => newcomerRun() >= 0 || log.runs.length - committedAt > MOST_FLOOD_EVENTS_BEFORE + 1, 'the newcomer or the bound');

    const floodEventsBefore = (newcomerRun() < 0 ? log.runs.length : newcomerRun()) - committedAt;
    assert.ok(newcomerRun() >= 0 && floodEventsBefore <= MOST_FLOOD_EVENTS_BEFORE, `the newcomer's event ${newcomerRun() < 0 ? 'still waited' : 'started'} after ${floodEventsBefore} flood events had started since its commit (at most ${MOST_FLOOD_EVENTS_BEFORE})`);
    assert.ok(log.finished.length < FLOOD / 2, 'the flood was still there when the newcomer came');
  });
}
