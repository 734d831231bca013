import type { PlainInboundEvent } from '@bot-ai/api';
import type { Knex } from 'knex';
import { enqueueInboundEventsSql, type SqlFragment } from '../dispatch/enqueue-inbound-events.ts';

/** One request's decoded events, stamped with the time they were received. */
export interface ReceivedCommit {
  sourceId: string;
  workflowId: string | undefined;
  events: PlainInboundEvent[];
  receivedAt: Date;
}

/** Enqueue the dispatch job of each new event in the INSERT's statement; `maxAttempts` tries each. */
export interface InboxEnqueue {
  maxAttempts: number;
}

// The whole batch travels as one jsonb parameter: the statement text never changes with the
// number of rows, JSON is serialised once, and no batch can reach PostgreSQL's 65,535-parameter
// limit. An event already stored (same source and event id) is skipped, not an error.
const INSERT_SQL = `
  INSERT INTO inbound_events (source_id, event_id, workflow_id, sender_foreign_id, event, received_at)
  SELECT source_id, event_id, workflow_id, sender_foreign_id, event, received_at
  FROM jsonb_to_recordset(?::jsonb)
    AS batch(source_id uuid, event_id text, workflow_id text, sender_foreign_id text, event jsonb, received_at timestamptz)
  ON CONFLICT (source_id, event_id) DO NOTHING
  RETURNING id, source_id, event_id, sender_foreign_id`;

/** A row the INSERT added (not one skipped as already stored). */
interface InsertedKey {
  source_id: string;
  event_id: string;
}

/**
 * Inserts the events of several requests in one statement and returns, per request, how many of
 * its events were new. An event carried twice in the batch (a platform retry racing the first
 * delivery) is inserted once and counted for the request that carried it first. With `enqueue`,
 * the same statement enqueues a dispatch job for each new event, and only for those.
 */
export async function insertInboxRows(db: Knex, commits: ReceivedCommit[], enqueue?: InboxEnqueue): Promise<number[]> {
  const firstCarrier = new Map<string, number>();
  const rows: object[] = [];
  commits.forEach((commit, index) => {
    for (const event of commit.events) {
      const key = rowKey(commit.sourceId, event.eventId);
      if (firstCarrier.has(key)) continue;
      firstCarrier.set(key, index);
      rows.push(toRow(commit, event));
    }
  });
  const statement = enqueue ? insertAndEnqueue(enqueue.maxAttempts) : { sql: INSERT_SQL, bindings: [] };
  const result = await db.raw<{ rows: InsertedKey[] }>(statement.sql, [JSON.stringify(rows), ...statement.bindings]);
  const newEvents = commits.map(() => 0);
  for (const row of result.rows) newEvents[firstCarrier.get(rowKey(row.source_id, row.event_id))!]! += 1;
  return newEvents;
}

/**
 * One autocommit statement instead of BEGIN, INSERT, SELECT add_jobs, COMMIT: a data-modifying
 * CTE commits with the statement or not at all, so events and jobs still commit together, in a
 * quarter of the round trips. The jobs CTE is a plain SELECT, which PostgreSQL runs only as far
 * as it is read: the final SELECT joins its one row, so it runs once, to the end.
 */
function insertAndEnqueue(maxAttempts: number): SqlFragment {
  const jobs = enqueueInboundEventsSql('inserted', maxAttempts);
  return {
    sql: `WITH inserted AS (${INSERT_SQL}),
      queued AS (${jobs.sql})
      SELECT inserted.source_id, inserted.event_id FROM inserted CROSS JOIN queued`,
    bindings: jobs.bindings,
  };
}

function toRow(commit: ReceivedCommit, event: PlainInboundEvent): object {
  return {
    source_id: commit.sourceId,
    event_id: event.eventId,
    workflow_id: commit.workflowId ?? null,
    sender_foreign_id: event.senderForeignId ?? null,
    event,
    received_at: commit.receivedAt,
  };
}

/** PostgreSQL returns a uuid in lower case whatever case it was given in. */
function rowKey(sourceId: string, eventId: string): string {
  return `${sourceId.toLowerCase()}/${eventId}`;
}
