import type { Knex } from 'knex';
import { PICK_FUNCTION } from './20261125000015_inbox_queue.ts';

/**
 * Which event of a conversation may run next, written once: `bot_claimable_event`. The walk
 * that claims fairly (`bot_pick_inbound_events`), the claim of announced conversations' heads
 * and the hand-off of a finished event's successor all ask it, where each used to spell the rule
 * out in SQL of its own. Changing the rule is now one `CREATE OR REPLACE` of this function.
 *
 * The rule, for one conversation (a source and a conversation key):
 * - an event of it runs (`running`): nothing else may run. With `p_take_over_before`, an event
 *   running under a claim older than that (its instance stopped renewing it), or under none, is
 *   returned to be taken over;
 * - otherwise its oldest unfinished event may run when it is queued and due (`retry_at` passed).
 *
 * `p_finished` is an event the caller is finishing in the same statement, which that statement's
 * snapshot still sees running: the rule looks past it, as if it had ended.
 *
 * A SQL function, STABLE and not STRICT, so PostgreSQL inlines it into the statements that call
 * it: the claims keep their index probes (pending index for the head, running index for a busy
 * conversation).
 */
const CLAIMABLE_EVENT_FUNCTION = `
CREATE FUNCTION bot_claimable_event(p_source uuid, p_conversation text, p_take_over_before timestamptz, p_finished uuid)
RETURNS TABLE (id uuid)
LANGUAGE sql STABLE AS $claimable$
  SELECT pick.id FROM (
    SELECT CASE
      WHEN busy.id IS NOT NULL THEN
        CASE WHEN p_take_over_before IS NOT NULL AND (busy.claimed_at IS NULL OR busy.claimed_at < p_take_over_before) THEN busy.id END
      WHEN head.status = 'queued' AND (head.retry_at IS NULL OR head.retry_at <= now()) THEN head.id
    END AS id
    FROM (
      SELECT e.id, e.status, e.retry_at FROM inbound_events AS e
      WHERE e.status IN ('queued', 'running') AND e.source_id = p_source
        AND coalesce(e.sender_foreign_id, e.id::text) = p_conversation AND e.id IS DISTINCT FROM p_finished
      ORDER BY e.seq LIMIT 1
    ) AS head
    LEFT JOIN LATERAL (
      SELECT e.id, e.claimed_at FROM inbound_events AS e
      WHERE e.status = 'running' AND e.source_id = p_source
        AND coalesce(e.sender_foreign_id, e.id::text) = p_conversation AND e.id IS DISTINCT FROM p_finished
      LIMIT 1
    ) AS busy ON true
  ) AS pick
  WHERE pick.id IS NOT NULL
$claimable$`;

/**
 * The fair walk of `bot_pick_inbound_events` (sources take turns, then each source's
 * conversations from its cursor; see the inbox-queue migration), unchanged but for the decision
 * at each conversation, which is now `bot_claimable_event`'s, taking over claims older than the
 * lease.
 */
const PICK_FUNCTION_ASKING_THE_RULE = `
CREATE OR REPLACE FUNCTION bot_pick_inbound_events(p_limit integer, p_lease_secs double precision, p_after_source uuid, p_cursors jsonb, p_budget integer)
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
  v_key text;
  v_pick uuid;
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
          SELECT coalesce(e.sender_foreign_id, e.id::text) INTO v_key
          FROM inbound_events e
          WHERE e.status IN ('queued', 'running') AND e.source_id = v_sources[i]
          ORDER BY coalesce(e.sender_foreign_id, e.id::text), e.seq LIMIT 1;
        ELSE
          SELECT coalesce(e.sender_foreign_id, e.id::text) INTO v_key
          FROM inbound_events e
          WHERE e.status IN ('queued', 'running') AND e.source_id = v_sources[i]
            AND coalesce(e.sender_foreign_id, e.id::text) > v_keys[i]
          ORDER BY coalesce(e.sender_foreign_id, e.id::text), e.seq LIMIT 1;
        END IF;
        -- Past the last conversation, or back where the walk began: start over once, then stop.
        IF NOT FOUND OR (v_wrapped[i] AND v_starts[i] IS NOT NULL AND v_key > v_starts[i]) THEN
          IF v_wrapped[i] THEN
            v_done[i] := true;
            v_keys[i] := NULL;
            EXIT;
          END IF;
          v_wrapped[i] := true;
          v_keys[i] := NULL;
          CONTINUE;
        END IF;
        v_keys[i] := v_key;
        v_pick := (SELECT c.id FROM bot_claimable_event(v_sources[i], v_key, v_stale, NULL) AS c);
        CONTINUE WHEN v_pick IS NULL;
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

export async function up(knex: Knex): Promise<void> {
  await knex.raw(CLAIMABLE_EVENT_FUNCTION);
  await knex.raw(PICK_FUNCTION_ASKING_THE_RULE);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP FUNCTION bot_pick_inbound_events(integer, double precision, uuid, jsonb, integer)');
  await knex.raw(PICK_FUNCTION);
  await knex.raw('DROP FUNCTION bot_claimable_event(uuid, text, timestamptz, uuid)');
}
