import type { PlainInboundEvent } from '@bot-ai/api';
import type { Knex } from 'knex';

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
export interface InsertedInboxRow {
  id: string;
  source_id: string;
  event_id: string;
  sender_foreign_id: string | null;
}

/** Runs in the transaction of the INSERT, with the rows it added: both commit or neither does. */
export type OnInboxRowsInserted = (trx: Knex.Transaction, rows: InsertedInboxRow[]) => Promise<void>;

/**
 * Inserts the events of several requests in one statement and returns, per request, how many of
 * its events were new. An event carried twice in the batch (a platform retry racing the first
 * delivery) is inserted once and counted for the request that carried it first.
 */
export async function insertInboxRows(db: Knex, commits: ReceivedCommit[], onInserted?: OnInboxRowsInserted): Promise<number[]> {
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
  const inserted = onInserted ? await db.transaction((trx) => insertAndThen(trx, rows, onInserted)) : await insert(db, rows);
  const newEvents = commits.map(() => 0);
  for (const row of inserted) newEvents[firstCarrier.get(rowKey(row.source_id, row.event_id))!]! += 1;
  return newEvents;
}

async function insert(db: Knex | Knex.Transaction, rows: object[]): Promise<InsertedInboxRow[]> {
  const result = await db.raw<{ rows: InsertedInboxRow[] }>(INSERT_SQL, [JSON.stringify(rows)]);
  return result.rows;
}

async function insertAndThen(trx: Knex.Transaction, rows: object[], onInserted: OnInboxRowsInserted): Promise<InsertedInboxRow[]> {
  const inserted = await insert(trx, rows);
  await onInserted(trx, inserted);
  return inserted;
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
