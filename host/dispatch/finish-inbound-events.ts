import type { Knex } from 'knex';
import { BatchedStatement } from '../db/batched-statement.ts';
import { RUN_END_COLUMNS, RUN_END_CTES, runEndColumns, type RunEnd } from '../workflows/runtime/run-end-sql.ts';
import { CLAIM_LOCKED_EVENTS, CONVERSATION_KEY, type ClaimedEvent, type InboundEventStatus } from './claimed-event.ts';

/** An attempt's outcome, recorded only while the attempt still holds the event's claim. */
export interface EventOutcome {
  id: string;
  claim_token: string;
  status: Exclude<InboundEventStatus, 'running'>;
  reason: string | null;
  /** For `queued` (a retry): how long from now the event may be tried again. */
  retryInMs: number | null;
  /** Whether the next event of the conversation is claimed for this instance in the same statement. */
  handoff: boolean;
  /** The attempt's run, ended in the same statement (its last step and status; see RunEnd), even when the claim was lost. */
  run?: RunEnd | undefined;
}

export interface FinishResult {
  /**
   * False when the attempt had lost its claim (another instance took the event over): the event's
   * outcome was not written (its run's end was: the run did end).
   */
  recorded: boolean;
  /** The conversation's next event, claimed for this instance: it runs next, with no poll in between. */
  next: ClaimedEvent | undefined;
}

/**
 * Records outcomes of the attempts that end at the same moment in one statement (see
 * BatchedStatement), with the ends of their runs (so a run's end costs no round trip of its
 * own; it is written even when the attempt lost its claim, see RUN_END_CTES), and hands each finished conversation's next event on to the instance that
 * finished it: the event bot_claimable_event allows, the oldest unfinished event of the
 * conversation when it is queued and due and nothing else of the conversation runs (a later
 * event left running by a dead instance is taken over by a claim instead, first). The statement
 * still sees the finished event as running (one snapshot), so the rule is told to look past it. An event left to wait for its retry hands nothing on:
 * it is still its conversation's oldest unfinished event, so the later ones wait behind it.
 * An event committed while this statement ran is not seen here; its NOTIFY wakes a claim instead
 * (see Dispatcher).
 */
export function finishInboundEvents(db: Knex): BatchedStatement<EventOutcome, FinishRow, FinishResult> {
  const conversation = CONVERSATION_KEY('e');
  return new BatchedStatement<EventOutcome, FinishRow, FinishResult>(db, {
    name: 'dispatch-finish-events',
    // `id = ANY(…)`: see BatchedStatement on why a batched UPDATE names its keys twice.
    sql: `WITH x AS (SELECT * FROM jsonb_to_recordset(?::jsonb)
                 AS x(id uuid, claim_token uuid, status text, reason text, retry_in_ms float8, handoff boolean, ${RUN_END_COLUMNS})),
          ${RUN_END_CTES('x')},
          finished AS (
            UPDATE inbound_events AS e SET status = x.status, reason = x.reason, claim_token = NULL,
              retry_at = CASE WHEN x.status = 'queued' THEN now() + make_interval(secs => x.retry_in_ms / 1000) END
            FROM x WHERE e.id = x.id AND e.claim_token = x.claim_token AND e.id = ANY(ARRAY(SELECT id FROM x))
            RETURNING e.id, e.status, e.source_id, ${conversation} AS conversation, x.handoff
          ), successors AS (
            -- The rule lives in bot_claimable_event; it looks past the finished event, which this snapshot still sees running.
            SELECT f.id AS after_id, next.id FROM finished AS f
            CROSS JOIN LATERAL bot_claimable_event(f.source_id, f.conversation, NULL::timestamptz, f.id) AS next
            WHERE f.handoff AND f.status <> 'queued'
          ), locked AS (
            SELECT e.id FROM inbound_events AS e
            WHERE e.id = ANY(ARRAY(SELECT id FROM successors)) AND e.status = 'queued'
            FOR UPDATE SKIP LOCKED
          ), ${CLAIM_LOCKED_EVENTS}
          -- Joined, not a subquery per finished row: that would claim-read every successor once per row.
          SELECT f.id, CASE WHEN c.id IS NULL THEN NULL ELSE row_to_json(c) END AS next
          FROM finished AS f LEFT JOIN successors AS s ON s.after_id = f.id LEFT JOIN claimed_events AS c ON c.id = s.id`,
    toRow: ({ id, claim_token, status, reason, retryInMs, handoff, run }) => ({ id, claim_token, status, reason, retry_in_ms: retryInMs, handoff, ...runEndColumns(run) }),
    results: (rows, outcomes) => {
      const byId = new Map(rows.map((row) => [row.id, row]));
      return outcomes.map((outcome) => {
        const row = byId.get(outcome.id);
        return { recorded: row !== undefined, next: row?.next ?? undefined };
      });
    },
  });
}

interface FinishRow {
  id: string;
  next: ClaimedEvent | null;
}
