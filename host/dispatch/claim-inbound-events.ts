import type { Knex } from 'knex';
import { PreparedStatement } from '../db/prepared-statement.ts';
import { CLAIM_LOCKED_EVENTS, CONVERSATION_KEY, STALE_CLAIM, type ClaimedEvent } from './claimed-event.ts';

/** Where a source's walk over its conversations goes on next time (see bot_pick_inbound_events). */
export interface SourceCursor {
  sourceId: string;
  conversation: string | null;
  more: boolean;
}

export interface ClaimRequest {
  /** Free slots: at most this many events are claimed. */
  limit: number;
  /** Claims older than this are taken over (BOT_DISPATCH_LEASE_MS). */
  leaseMs: number;
  /** The source served last: the next claim starts with the one after it. */
  afterSourceId: string | null;
  /** Each source's cursor from the previous claim. */
  cursors: ReadonlyMap<string, string>;
}

export interface ClaimResult {
  events: ClaimedEvent[];
  cursors: SourceCursor[];
}

/**
 * Index steps one claim may take. A claim walks past conversations it cannot run (in flight,
 * waiting for a retry); during a platform outage those can be thousands, and the walk stops here
 * and says so (`more`), so no single statement grows with the backlog.
 */
const CLAIM_BUDGET_STEPS = 2_000;

const CLAIM = new PreparedStatement<{ events: ClaimedEvent[]; cursors: SourceCursor[] }>(
  'dispatch-claim-events',
  `WITH picked AS (SELECT * FROM bot_pick_inbound_events(?::int, ?::float8, ?::uuid, ?::jsonb, ?::int)),
   locked AS (
     SELECT e.id FROM inbound_events AS e
     WHERE e.id = ANY(ARRAY(SELECT id FROM picked WHERE id IS NOT NULL))
       AND ((e.status = 'queued' AND (e.retry_at IS NULL OR e.retry_at <= now()))
            OR (e.status = 'running' AND ${STALE_CLAIM('e')}))
     FOR UPDATE SKIP LOCKED
   ), ${CLAIM_LOCKED_EVENTS}
   SELECT (SELECT coalesce(json_agg(c), '[]'::json) FROM claimed_events AS c) AS events,
     (SELECT coalesce(json_agg(json_build_object('sourceId', p.source_id, 'conversation', p.conversation, 'more', p.more)), '[]'::json)
      FROM picked AS p WHERE p.id IS NULL) AS cursors`,
);

/**
 * Claims up to `limit` events that may run now, fairly across sources and their conversations,
 * in one statement: the oldest unfinished event of each conversation that is not busy, queued and
 * due, or left running by an instance that stopped renewing its claim. Rows another instance is
 * claiming at the same moment are skipped, not waited for (SKIP LOCKED).
 */
export async function claimInboundEvents(db: Knex, request: ClaimRequest): Promise<ClaimResult> {
  const leaseSecs = request.leaseMs / 1000;
  const cursors = JSON.stringify(Object.fromEntries(request.cursors));
  const { rows } = await CLAIM.run(db, [request.limit, leaseSecs, request.afterSourceId, cursors, CLAIM_BUDGET_STEPS, leaseSecs]);
  const [row] = rows;
  return { events: row?.events ?? [], cursors: row?.cursors ?? [] };
}

/** A conversation: its source and key (the sender, or the id of an event without one). */
export interface ConversationRef {
  sourceId: string;
  conversation: string;
}

const CLAIM_HEADS = new PreparedStatement<{ events: ClaimedEvent[] }>(
  'dispatch-claim-conversation-heads',
  `WITH wanted AS (
     SELECT e.source_id, ${CONVERSATION_KEY('e')} AS conversation FROM inbound_events AS e WHERE e.id = ANY(?::uuid[])
     UNION
     SELECT w.source_id, w.conversation FROM jsonb_to_recordset(?::jsonb) AS w(source_id uuid, conversation text)
   ), heads AS (
     -- The rule lives in bot_claimable_event; a claim in flight is not taken over here (NULL), the walk does that.
     SELECT claimable.id FROM wanted CROSS JOIN LATERAL bot_claimable_event(wanted.source_id, wanted.conversation, NULL::timestamptz, NULL::uuid) AS claimable
   ), locked AS (
     SELECT e.id FROM inbound_events AS e
     WHERE e.id = ANY(ARRAY(SELECT id FROM heads)) AND e.status = 'queued'
     ORDER BY e.seq LIMIT ?
     FOR UPDATE SKIP LOCKED
   ), ${CLAIM_LOCKED_EVENTS}
   SELECT (SELECT coalesce(json_agg(c), '[]'::json) FROM claimed_events AS c) AS events`,
);

/**
 * Claims, for up to `limit` free slots, the next event of each conversation named: those of the
 * events a notice announced, and those a finished event released. Each conversation's next event
 * is the one bot_claimable_event allows: its oldest unfinished event, queued and due, with nothing
 * of the conversation running.
 * A few index probes per conversation instead of the walk over every unfinished conversation
 * `claimInboundEvents` takes (`npm run bench -- e2e` at 200 messages/s: that walk was the
 * dispatcher's costliest statement, one per message). Fairness is not at stake: a dispatcher
 * claims this way only with slots free and no backlog it knows of; the walk serves the rest.
 */
export async function claimConversationHeads(db: Knex, eventIds: readonly string[], conversations: readonly ConversationRef[], limit: number): Promise<ClaimedEvent[]> {
  const pairs = conversations.map(({ sourceId, conversation }) => ({ source_id: sourceId, conversation }));
  const { rows } = await CLAIM_HEADS.run(db, [eventIds, JSON.stringify(pairs), limit]);
  return rows[0]?.events ?? [];
}
