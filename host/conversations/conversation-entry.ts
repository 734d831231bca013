import type { StdIncomingMessage } from '@bot-ai/api';
import type { Knex } from 'knex';
import { BatchedStatement } from '../db/batched-statement.ts';
import { insertStartedRuns, RUN_START_ROW_COLUMNS, type RunStartRow } from '../workflows/runtime/run-records.ts';
import { textOf } from './message-history.ts';
import { toSubscriber, type Subscriber, type SubscriberRow } from './subscriber-store.ts';

/** An inbound event arriving in its conversation. */
export interface Arrival {
  sourceId: string;
  senderForeignId: string;
  inboundEventId: string;
  /** Recorded in the thread's history; an event without a message records nothing. */
  message: StdIncomingMessage | undefined;
  /** The run the arrival starts: recorded with it, for its subscriber and thread. */
  run?: RunStartRow;
}

/** Where an arrival landed: its subscriber and the thread it now belongs to. */
export interface Entered {
  subscriber: Subscriber;
  threadId: string;
}

/** One arrival as a row of the batched statement. */
interface ArrivalRow {
  source_id: string;
  foreign_id: string;
  at: Date;
  since: Date;
  text: string;
  message: StdIncomingMessage | null;
  inbound_event_id: string;
  record: boolean;
  run: RunStartRow | null;
}

// Data-modifying CTEs run once whatever the final SELECT reads, and each sees the tables as they
// were when the statement began: `found` picks each arrival's current thread, `touched` and
// `created` write, `entered` names the thread each arrival landed in, and `started` records the
// run an arrival starts there (a sender without a subscriber enters nothing and starts nothing). Every lookup is a LATERAL
// probe of a unique index, so the plan does not depend on the tables' statistics.
const ENTER_SQL = `
  WITH x AS (
    SELECT * FROM ROWS FROM (jsonb_to_recordset(?::jsonb)
        AS (source_id uuid, foreign_id text, at timestamptz, since timestamptz, text text, message jsonb, inbound_event_id uuid, record boolean, run jsonb))
      WITH ORDINALITY AS x(source_id, foreign_id, at, since, text, message, inbound_event_id, record, run, ord)
  ), found AS (
    SELECT x.*, s.id AS subscriber_id, latest.id AS thread_id
      FROM x
      CROSS JOIN LATERAL (SELECT s.id FROM subscribers AS s WHERE s.source_id = x.source_id AND s.foreign_id = x.foreign_id) AS s
      LEFT JOIN LATERAL (SELECT t.id FROM threads AS t WHERE t.subscriber_id = s.id AND t.source_id = x.source_id AND t.last_activity_at >= x.since
                          ORDER BY t.last_activity_at DESC LIMIT 1) AS latest ON true
  ), touched AS (
    UPDATE threads AS t SET last_activity_at = greatest(t.last_activity_at, f.at)
      FROM found AS f WHERE t.id = f.thread_id AND t.id = ANY(ARRAY(SELECT thread_id FROM found WHERE thread_id IS NOT NULL))
  ), created AS (
    INSERT INTO threads (subscriber_id, source_id, created_at, last_activity_at)
    SELECT f.subscriber_id, f.source_id, f.at, f.at FROM found AS f WHERE f.thread_id IS NULL
    RETURNING id, subscriber_id
  ), entered AS (
    -- A subscriber arrives at most once per statement (the batch is keyed by conversation).
    SELECT f.*, coalesce(f.thread_id, c.id) AS entered_thread_id
      FROM found AS f LEFT JOIN created AS c ON f.thread_id IS NULL AND c.subscriber_id = f.subscriber_id
  ), recorded AS (
    INSERT INTO conversation_messages (thread_id, direction, text, message, inbound_event_id, created_at)
    SELECT e.entered_thread_id, 'in', e.text, e.message, e.inbound_event_id, e.at FROM entered AS e WHERE e.record
    ON CONFLICT (inbound_event_id) WHERE direction = 'in' DO NOTHING
  ), started AS (
    ${insertStartedRuns(`SELECT r.*, e.subscriber_id::text AS owner_id, e.entered_thread_id AS thread_id
                           FROM entered AS e CROSS JOIN LATERAL jsonb_to_record(e.run) AS r(${RUN_START_ROW_COLUMNS})
                          WHERE e.run IS NOT NULL`)}
  )
  SELECT e.ord, e.entered_thread_id AS thread_id, s.* FROM entered AS e
    CROSS JOIN LATERAL (SELECT * FROM subscribers AS s WHERE s.id = e.subscriber_id) AS s`;

/**
 * Takes an inbound event into its conversation: finds the sender's subscriber, touches the
 * current thread (or starts a new one after `inactivityMs` of silence, so thread-scoped memory
 * and the history an AI reply reads belong to one conversation), and records the message in the
 * thread's history once per event, however often its run is retried. Arrivals of the runs in
 * flight share one statement and one commit (group commit, see BatchedStatement): under load a
 * conversation's entry costs a fraction of a round trip (`npm run bench -- e2e`).
 */
export class ConversationEntry {
  readonly #arrivals: BatchedStatement<ArrivalRow, SubscriberRow & { ord: string; thread_id: string }, Entered | undefined>;

  constructor(
    db: Knex,
    private readonly options: { now: () => Date; inactivityMs: number },
  ) {
    this.#arrivals = new BatchedStatement(db, {
      name: 'conversation-enter',
      sql: ENTER_SQL,
      toRow: (row) => ({ ...row }),
      // Two arrivals of one subscriber in a statement would both start a thread.
      keyOf: (row) => `${row.source_id}/${row.foreign_id}`,
      results: (rows, arrivals) => {
        const byOrd = new Map(rows.map((row) => [Number(row.ord), row]));
        return arrivals.map((_, index) => {
          const row = byOrd.get(index + 1);
          return row ? { subscriber: toSubscriber(row, false), threadId: row.thread_id } : undefined;
        });
      },
    });
  }

  /** Undefined when the sender has no subscriber yet: create it (SubscriberStore), then enter again. */
  enter({ sourceId, senderForeignId, inboundEventId, message, run }: Arrival): Promise<Entered | undefined> {
    const at = this.options.now();
    return this.#arrivals.submit({
      source_id: sourceId,
      foreign_id: senderForeignId,
      at,
      since: new Date(at.getTime() - this.options.inactivityMs),
      text: message ? textOf(message) : '',
      message: message ?? null,
      inbound_event_id: inboundEventId,
      record: message !== undefined,
      run: run ?? null,
    });
  }
}
