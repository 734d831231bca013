import type { Knex } from 'knex';

/**
 * The inbox becomes the dispatcher's queue: events are claimed straight from
 * `inbound_events`, one conversation's events in arrival order, so graphile-worker's jobs, the
 * leases on its workers and the holds that patched its ordering go.
 *
 * - `retry_at`: when a failed attempt may be tried again (NULL: due at once). An event waiting
 *   for it is still the oldest unfinished event of its conversation, so it holds the later ones
 *   back with no hold of its own.
 * - `inbound_events_pending_idx`: the unfinished events by conversation (source, then sender, or
 *   the event's own id for an event without a sender, which needs no order), oldest first. Its
 *   first entry per conversation is the one the dispatcher may run; the claim walks it one
 *   conversation at a time (see bot_pick_inbound_events), so 10,000 queued messages of one
 *   conversation cost one step, not 10,000.
 * - `inbound_events_running_idx`: events in flight by conversation (few: at most every
 *   instance's concurrency); one probe says whether a conversation is busy. Unique: at most one
 *   event of a conversation runs, whatever races the claims of two instances lose (two deliveries
 *   of one conversation committed out of their arrival order, each seen first by another claim);
 *   the losing claim fails whole and claims again. Events left running together by the old job
 *   engine (a crash) are queued again first, all but the oldest.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE inbound_events ADD COLUMN retry_at timestamptz');
  await knex.raw(`CREATE INDEX inbound_events_pending_idx ON inbound_events
    (source_id, (coalesce(sender_foreign_id, id::text)), seq) WHERE status IN ('queued', 'running')`);
  await knex.raw(`UPDATE inbound_events AS e SET status = 'queued', claim_token = NULL
    WHERE e.status = 'running' AND EXISTS (SELECT 1 FROM inbound_events AS older
      WHERE older.status = 'running' AND older.source_id = e.source_id
        AND coalesce(older.sender_foreign_id, older.id::text) = coalesce(e.sender_foreign_id, e.id::text) AND older.seq < e.seq)`);
  await knex.raw(`CREATE UNIQUE INDEX inbound_events_running_idx ON inbound_events
    (source_id, (coalesce(sender_foreign_id, id::text))) WHERE status = 'running'`);
  await knex.raw(PICK_FUNCTION);
  await knex.schema.dropTableIfExists('conversation_holds');
  await knex.schema.dropTableIfExists('job_worker_leases');
  // Events a job would have run are `queued` or `running` in the inbox already: the claim finds them.
  await knex.raw('DROP SCHEMA IF EXISTS graphile_worker CASCADE');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP FUNCTION IF EXISTS bot_pick_inbound_events(integer, double precision, uuid, jsonb, integer)');
  await knex.raw('DROP INDEX IF EXISTS inbound_events_running_idx');
  await knex.raw('DROP INDEX IF EXISTS inbound_events_pending_idx');
  await knex.raw('ALTER TABLE inbound_events DROP COLUMN retry_at');
  await knex.schema.createTable('job_worker_leases', (table) => {
    table.text('worker_id').primary();
    table.timestamp('heartbeat_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.schema.createTable('conversation_holds', (table) => {
    table.uuid('inbound_event_id').primary().references('inbound_events.id').onDelete('CASCADE');
    table.uuid('source_id').notNullable();
    table.text('sender_foreign_id').notNullable();
    table.bigInteger('seq').notNullable();
    table.index(['source_id', 'sender_foreign_id', 'seq'], 'conversation_holds_conversation_idx');
  });
}

/**
 * Which events a dispatcher with `p_limit` free slots should claim, fairly: sources take turns
 * (one event each per round, the first source after `p_after_source`), and within a source the
 * conversations take turns (each source's walk goes on from its cursor in `p_cursors`, a
 * `{ "<source id>": "<conversation key>" }` map, and wraps around once). A conversation is
 * claimable when its oldest unfinished event is queued and due and nothing of it runs under a
 * live claim, or when that event runs under a claim older than `p_lease_secs` (its instance
 * died). Nothing is locked here: the caller locks the rows returned (SKIP LOCKED) and checks them
 * again, so a pick that raced another instance's claim costs nothing.
 *
 * Returns the picked events (`id` set), then one row per source visited with `id` NULL: its
 * cursor for the next call (NULL once its walk went all the way round) and `more`, true when the
 * walk stopped at `p_budget` index steps with sources not yet all walked (call again soon).
 */
export const PICK_FUNCTION = `
CREATE FUNCTION bot_pick_inbound_events(p_limit integer, p_lease_secs double precision, p_after_source uuid, p_cursors jsonb, p_budget integer)
RETURNS TABLE (id uuid, source_id uuid, conversation text, more boolean)
LANGUAGE plpgsql STABLE AS $pick$
DECLARE
  v_sources uuid[];
  v_keys text[];
  v_starts text[];
  v_wrapped boolean[];
  v_done boolean[];
  v_found integer := 0;
  v_steps integer := 0;
  v_progress boolean;
  v_stale timestamptz := now() - make_interval(secs => p_lease_secs);
  v_row record;
  v_running record;
  v_pick uuid;
  v_key text;
  i integer;
BEGIN
  -- The sources with unfinished events: a loose scan of the pending index, one step per source.
  WITH RECURSIVE walk AS (
    (SELECT e.source_id FROM inbound_events e WHERE e.status IN ('queued', 'running') ORDER BY e.source_id LIMIT 1)
    UNION ALL
    SELECT (SELECT e.source_id FROM inbound_events e
            WHERE e.status IN ('queued', 'running') AND e.source_id > walk.source_id ORDER BY e.source_id LIMIT 1)
    FROM walk WHERE walk.source_id IS NOT NULL
  )
  SELECT array_agg(walk.source_id ORDER BY (p_after_source IS NOT NULL AND walk.source_id <= p_after_source), walk.source_id)
  INTO v_sources FROM walk WHERE walk.source_id IS NOT NULL;
  IF v_sources IS NULL OR p_limit <= 0 THEN RETURN; END IF;

  FOR i IN 1 .. array_length(v_sources, 1) LOOP
    v_keys[i] := p_cursors ->> v_sources[i]::text;
    v_starts[i] := v_keys[i];
    v_wrapped[i] := v_keys[i] IS NULL;
    v_done[i] := false;
  END LOOP;

  <<rounds>>
  LOOP
    v_progress := false;
    FOR i IN 1 .. array_length(v_sources, 1) LOOP
      CONTINUE WHEN v_done[i];
      -- Walk this source's conversations from its cursor to the next claimable one.
      LOOP
        IF v_steps >= p_budget THEN EXIT rounds; END IF;
        v_steps := v_steps + 1;
        IF v_keys[i] IS NULL THEN
          SELECT e.id, coalesce(e.sender_foreign_id, e.id::text) AS conversation, e.status, e.retry_at, e.claimed_at INTO v_row
          FROM inbound_events e
          WHERE e.status IN ('queued', 'running') AND e.source_id = v_sources[i]
          ORDER BY coalesce(e.sender_foreign_id, e.id::text), e.seq LIMIT 1;
        ELSE
          SELECT e.id, coalesce(e.sender_foreign_id, e.id::text) AS conversation, e.status, e.retry_at, e.claimed_at INTO v_row
          FROM inbound_events e
          WHERE e.status IN ('queued', 'running') AND e.source_id = v_sources[i]
            AND coalesce(e.sender_foreign_id, e.id::text) > v_keys[i]
          ORDER BY coalesce(e.sender_foreign_id, e.id::text), e.seq LIMIT 1;
        END IF;
        -- Past the last conversation, or back where the walk began: start over once, then stop.
        IF NOT FOUND OR (v_wrapped[i] AND v_starts[i] IS NOT NULL AND v_row.conversation > v_starts[i]) THEN
          IF v_wrapped[i] THEN
            v_done[i] := true;
            v_keys[i] := NULL;
            EXIT;
          END IF;
          v_wrapped[i] := true;
          v_keys[i] := NULL;
          CONTINUE;
        END IF;
        v_key := v_row.conversation;
        v_keys[i] := v_key;
        IF v_row.status = 'running' THEN
          -- In flight; claimable only when its instance stopped renewing the claim.
          CONTINUE WHEN v_row.claimed_at IS NOT NULL AND v_row.claimed_at >= v_stale;
          v_pick := v_row.id;
        ELSE
          -- A later event can run while this older one was still uncommitted (two deliveries at
          -- once): the conversation is busy until it ends, and taken over first if its instance died.
          SELECT r.id, r.claimed_at INTO v_running FROM inbound_events r
          WHERE r.status = 'running' AND r.source_id = v_sources[i] AND coalesce(r.sender_foreign_id, r.id::text) = v_key;
          IF FOUND THEN
            CONTINUE WHEN v_running.claimed_at IS NOT NULL AND v_running.claimed_at >= v_stale;
            v_pick := v_running.id;
          ELSE
            CONTINUE WHEN v_row.retry_at IS NOT NULL AND v_row.retry_at > now();
            v_pick := v_row.id;
          END IF;
        END IF;
        id := v_pick; source_id := v_sources[i]; conversation := v_key; more := false;
        RETURN NEXT;
        v_found := v_found + 1;
        v_progress := true;
        IF v_found >= p_limit THEN EXIT rounds; END IF;
        EXIT;
      END LOOP;
    END LOOP;
    EXIT WHEN NOT v_progress;
  END LOOP;

  FOR i IN 1 .. array_length(v_sources, 1) LOOP
    id := NULL; source_id := v_sources[i]; conversation := v_keys[i];
    more := v_steps >= p_budget AND NOT v_done[i];
    RETURN NEXT;
  END LOOP;
END
$pick$`;
