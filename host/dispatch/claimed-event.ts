import type { PlainInboundEvent } from '@bot-ai/api';
import type { SourceRow } from '../sources/source.ts';

export type InboundEventStatus = 'queued' | 'running' | 'done' | 'skipped' | 'failed';

/** What a run needs of the event's source (resolved after the claim, from the source cache). */
export type EventSource = Pick<SourceRow, 'id' | 'ref' | 'name' | 'channel' | 'settings' | 'active' | 'default_workflow_id'>;

/** The fields of a source a run hands on (to the channel's sandbox among others): no more than it needs. */
export function eventSourceOf({ id, ref, name, channel, settings, active, default_workflow_id }: SourceRow): EventSource {
  return { id, ref, name, channel, settings, active, default_workflow_id };
}

/**
 * An inbound event this instance claimed, as the claiming statement returns it. Its source and
 * its workflow's current version are not read there: the processor takes them from caches.
 */
export interface ClaimedEvent {
  id: string;
  source_id: string;
  workflow_id: string | null;
  sender_foreign_id: string | null;
  event: PlainInboundEvent;
  /** Attempts that claimed the event, this one included. */
  attempts: number;
  /** Only the attempt holding this token may record the event's outcome. */
  claim_token: string;
  /** Runs of this event that a dead host left `running`, now marked failed. */
  abandoned_run_ids: string[];
  /** Whether an earlier attempt started a run: only then can a step be reused. */
  has_earlier_runs: boolean;
  /** The sender's subscriber when the claim was made (none yet for a new sender): the run reads its memory while entering. */
  subscriber_id: string | null;
}

/**
 * The unfinished events of an event's conversation share this key with it: its source and sender,
 * or for an event without a sender (which needs no order) its own id. The pending and running
 * indexes are built on the same expression, so write it exactly so.
 */
export const CONVERSATION_KEY = (alias: string) => `coalesce(${alias}.sender_foreign_id, ${alias}.id::text)`;

/** The index that lets one event of a conversation run at a time (see the inbox-queue migration). */
export const ONE_RUNNING_PER_CONVERSATION = 'inbound_events_running_idx';

/** An event `running` under a claim at least this old (seconds, the `?`) is taken over: its instance stopped renewing it. */
export const STALE_CLAIM = (alias: string) => `(${alias}.claimed_at IS NULL OR ${alias}.claimed_at < now() - make_interval(secs => ?))`;

const ABANDONED_RUN_ERROR = JSON.stringify({ code: 'BOT_ERR_WORKFLOW_RUN_ABANDONED', message: 'The host running it stopped; a later attempt took over' });

/**
 * CTEs that claim the events whose ids the relation `locked` holds (locked by the statement
 * already): each is marked running under a new claim token and counted as an attempt; the runs a
 * dead host left `running` are ended; and `claimed_events` yields each as a ClaimedEvent, with
 * its sender's subscriber (a probe of its unique index), so the run reads its memory meanwhile. One
 * round trip for all of it (each one counts: `npm run bench -- e2e`). The source and the
 * workflow's current version are not joined in: they come from caches kept in step by NOTIFY
 * (SourceCache, WorkflowVersionCache), which spares every claim two joins and a JSON build per event.
 *
 * `claimed_events` is MATERIALIZED: the statement that finishes events joins its successors to
 * it, and inlined it was computed again for every finished event (12,000 loops for a group of 23).
 * `EXISTS … LIMIT 1` keeps the look for earlier runs an index probe: without the LIMIT the
 * planner may hash the whole of `workflow_runs` instead.
 *
 * Rows are named by `id = ANY(ARRAY(SELECT …))`, here and in the statements that lock them, never
 * `id IN (SELECT …)`: a prepared statement keeps the plan it made once, and one made while the
 * queue was empty turned `IN` into a walk of the pending index, whose cost grows with the backlog
 * (21 ms for 24 events behind 2,700 queued ones). An array of keys is probed in the primary key
 * (a bitmap scan of it even on a never-analyzed table; the other tables' probes need statistics,
 * see BatchedStatement).
 */
export const CLAIM_LOCKED_EVENTS = `
  claimed AS (
    UPDATE inbound_events AS e SET status = 'running', attempts = e.attempts + 1,
      claim_token = gen_random_uuid(), claimed_at = now(), retry_at = NULL
    WHERE e.id = ANY(ARRAY(SELECT id FROM locked))
    RETURNING e.id, e.source_id, e.workflow_id, e.sender_foreign_id, e.event, e.claim_token, e.attempts
  ), abandoned AS (
    UPDATE workflow_runs SET status = 'failed', finished_at = now(), error = '${ABANDONED_RUN_ERROR}'::jsonb
    WHERE inbound_event_id = ANY(ARRAY(SELECT id FROM claimed)) AND status = 'running'
    RETURNING id, inbound_event_id
  ), claimed_events AS MATERIALIZED (
    SELECT claimed.*,
      array(SELECT a.id FROM abandoned AS a WHERE a.inbound_event_id = claimed.id) AS abandoned_run_ids,
      EXISTS (SELECT 1 FROM workflow_runs AS r WHERE r.inbound_event_id = claimed.id LIMIT 1) AS has_earlier_runs,
      (SELECT s.id FROM subscribers AS s WHERE s.source_id = claimed.source_id AND s.foreign_id = claimed.sender_foreign_id) AS subscriber_id
    FROM claimed
  )`;
