/**
 * The inbox queue driven by hand, for tests that play an instance themselves: claims made as a
 * dispatcher makes them, a waiting event made due (time passing without a sleep), and the
 * notices that wake dispatchers.
 */
import assert from 'node:assert/strict';
import type { Knex } from 'knex';
import pg from 'pg';
import { claimInboundEvents } from '../../host/dispatch/claim-inbound-events.ts';
import type { ClaimedEvent } from '../../host/dispatch/claimed-event.ts';
import { INBOX_CHANNEL } from '../../host/inbox/inbox-notice.ts';
import type { ProcessResult } from '../../host/dispatch/inbound-event-processor.ts';

/** A lease no claim in a test reaches unless the test ages it on purpose. */
export const LONG_LEASE_MS = 60_000;

/** Claims every event that may run now, as an instance with slots to spare would (the real claim statement). */
export async function claimAll(db: Knex, leaseMs = LONG_LEASE_MS): Promise<ClaimedEvent[]> {
  const { events } = await claimInboundEvents(db, { limit: 1_000, leaseMs, afterSourceId: null, cursors: new Map() });
  return events;
}

/** Claims every event that may run now and runs each to its end, handing nothing on; returns what was claimed. */
export async function claimAndProcess(
  db: Knex,
  processor: { process(row: ClaimedEvent, options: { handoff: boolean }): Promise<ProcessResult> },
  leaseMs = LONG_LEASE_MS,
): Promise<ClaimedEvent[]> {
  const events = await claimAll(db, leaseMs);
  for (const event of events) await processor.process(event, { handoff: false });
  return events;
}

/**
 * Waits until the event with the platform's `eventId` waits for a retry after `attempts` attempts
 * (queued, its retry time set); returns when it is due.
 */
export async function waitForRetry(db: Knex, eventId: string, attempts: number, timeoutMs = 20_000): Promise<Date> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const row: { status: string; attempts: number; retry_at: Date | null } | undefined = await db('inbound_events').where({ event_id: eventId }).first('status', 'attempts', 'retry_at');
    if (row?.status === 'queued' && row.attempts === attempts && row.retry_at !== null) return row.retry_at;
    if (Date.now() > deadline) assert.fail(`${eventId} is not waiting for a retry after attempt ${attempts}: ${JSON.stringify(row)}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Time passes for the waiting events with these platform event ids: their retries are due now. */
export async function makeDue(db: Knex, eventIds: string[]): Promise<void> {
  await db('inbound_events').whereIn('event_id', eventIds).where({ status: 'queued' }).update({ retry_at: db.fn.now() });
}

/** A connection LISTENing on the inbox's channel, as every dispatcher's is. */
export interface InboxListener {
  /** Notices received so far, counted once every notice committed before the call has arrived. */
  received(): Promise<number>;
  close(): Promise<void>;
}

const MARKER = 'test-marker-';

/** Listens for the notices that wake dispatchers on the database at `url`. */
export async function listenToInbox(url: string): Promise<InboxListener> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const payloads: string[] = [];
  client.on('notification', (message) => {
    if (message.channel === INBOX_CHANNEL) payloads.push(message.payload ?? '');
  });
  await client.query(`LISTEN ${INBOX_CHANNEL}`);
  let markers = 0;
  return {
    async received() {
      // Notices arrive in commit order: once a marker sent now has arrived, every earlier one has.
      markers += 1;
      const marker = `${MARKER}${markers}`;
      await client.query('SELECT pg_notify($1, $2)', [INBOX_CHANNEL, marker]);
      for (const deadline = Date.now() + 10_000; !payloads.includes(marker); await new Promise((resolve) => setTimeout(resolve, 10))) {
        if (Date.now() > deadline) assert.fail('the marker notice never arrived');
      }
      return payloads.filter((payload) => !payload.startsWith(MARKER)).length;
    },
    close: () => client.end(),
  };
}
