import type { PlainInboundEvent } from '@bot-ai/api';
import type { Knex } from 'knex';
import { PreparedStatement } from '../db/prepared-statement.ts';
import { INBOX_CHANNEL, MAX_ANNOUNCED_EVENTS } from './inbox-notice.ts';

/** One request's decoded events, stamped with the time they were received. */
export interface ReceivedCommit {
  sourceId: string;
  workflowId: string | undefined;
  events: PlainInboundEvent[];
  receivedAt: Date;
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
 * delivery) is inserted once and counted for the request that carried it first.
 * With `notify`, the statement also wakes the dispatchers (NOTIFY, delivered at its commit) when
 * it added any event: the inbox is their queue, so no job is written besides the event.
 */
export async function insertInboxRows(db: Knex, commits: ReceivedCommit[], notify = false): Promise<number[]> {
  const firstCarrier = new Map<string, number>();
  const rows: object[] = [];
  commits.forEach((commit, index) => {
    // As text, which JSON.stringify writes the same: a Date among the rows (its toJSON) takes
    // JSON.stringify off its fast path for the whole batch, about twice as slow.
    const receivedAt = commit.receivedAt.toJSON();
    for (const event of commit.events) {
      const key = rowKey(commit.sourceId, event.eventId);
      if (firstCarrier.has(key)) continue;
      firstCarrier.set(key, index);
      rows.push(toRow(commit, event, receivedAt));
    }
  });
  const result = await (notify ? INSERT_AND_NOTIFY : INSERT).run(db, [JSON.stringify(rows)]);
  const newEvents = commits.map(() => 0);
  for (const row of result.rows) newEvents[firstCarrier.get(rowKey(row.source_id, row.event_id))!]! += 1;
  return newEvents;
}

/**
 * The INSERT and a NOTIFY in one autocommit statement: the notice is sent when the events commit,
 * never for a rolled back insert, and once per statement however many events it carries (none
 * when every event was stored already). It names the new events (comma-separated ids), so a
 * dispatcher with free slots claims just those; past MAX_ANNOUNCED_EVENTS (a notice holds 8,000
 * bytes) it is empty, which means "look everywhere". The scalar subquery runs once, before the
 * rows are read.
 */
const INSERT_AND_NOTIFY_SQL = `WITH inserted AS (${INSERT_SQL})
  SELECT source_id, event_id FROM inserted
  WHERE (SELECT pg_notify('${INBOX_CHANNEL}', CASE WHEN count(*) <= ${MAX_ANNOUNCED_EVENTS} THEN string_agg(id::text, ',') ELSE '' END)::text
         FROM inserted HAVING count(*) > 0) IS NOT NULL`;

// Parsed and planned once per connection, like the dispatcher's hot statements: the text never
// changes with the batch, so planning it anew for each batch is work for nothing.
const INSERT = new PreparedStatement<InsertedKey>('inbox-insert', INSERT_SQL);
const INSERT_AND_NOTIFY = new PreparedStatement<InsertedKey>('inbox-insert-and-notify', INSERT_AND_NOTIFY_SQL);

function toRow(commit: ReceivedCommit, event: PlainInboundEvent, receivedAt: string | null): object {
  return {
    source_id: commit.sourceId,
    event_id: event.eventId,
    workflow_id: commit.workflowId ?? null,
    sender_foreign_id: event.senderForeignId ?? null,
    event,
    received_at: receivedAt,
  };
}

/** PostgreSQL returns a uuid in lower case whatever case it was given in. */
function rowKey(sourceId: string, eventId: string): string {
  return `${sourceId.toLowerCase()}/${eventId}`;
}
