import type { Knex } from 'knex';
import type { MemorySchema } from '../definitions/memory-definition.ts';
import type { MemoryRecordRow, MemoryTarget } from './memory-record.ts';
import type { WriteRow } from './memory-write-rows.ts';

/**
 * One statement for any number of rows: the rows travel as a single JSON parameter, so the
 * statement stays the same (and cheap to plan) whatever the batch size, with no limit on
 * parameter count. The whole value is replaced and the expiry reset at every write. A row
 * already past its expiry is gone for every reader, so writing it again starts a new record
 * (new id and creation time) rather than reviving the old one.
 */
const UPSERT_SQL = `
  INSERT INTO memory_records AS r
    (definition_id, owner_id, workflow_id, thread_id, run_id, scope_key, value, expires_at, created_at, updated_at)
  SELECT x.definition_id, x.owner_id, x.workflow_id, x.thread_id, x.run_id, x.scope_key, x.value, x.expires_at, ?::timestamptz, ?::timestamptz
    FROM jsonb_to_recordset(?::jsonb) AS x(definition_id uuid, owner_id text, workflow_id text, thread_id text,
                                           run_id text, scope_key text, value jsonb, expires_at timestamptz)
  ON CONFLICT (owner_id, definition_id, scope_key) DO UPDATE SET
    value = excluded.value,
    expires_at = excluded.expires_at,
    updated_at = excluded.updated_at,
    id = CASE WHEN r.expires_at <= excluded.updated_at THEN excluded.id ELSE r.id END,
    created_at = CASE WHEN r.expires_at <= excluded.updated_at THEN excluded.created_at ELSE r.created_at END
  RETURNING r.id, r.definition_id, r.owner_id, r.workflow_id, r.thread_id, r.run_id, r.value, r.expires_at, r.created_at, r.updated_at`;

/** Upserts rows already deduplicated by identity; returns them as stored. */
export async function upsertRecords(db: Knex, rows: WriteRow[], now: Date): Promise<Omit<MemoryRecordRow, 'slug'>[]> {
  const at = now.toISOString();
  const result = await db.raw<{ rows: Omit<MemoryRecordRow, 'slug'>[] }>(UPSERT_SQL, [at, at, JSON.stringify(rows)]);
  return result.rows;
}

/** A live record with what is needed to re-check it against its definition's current schema. */
export interface LoadedRow {
  id: string;
  definition_id: string;
  slug: string;
  value: unknown;
  schema: MemorySchema;
  definition_updated_at: Date;
}

/**
 * A target's unexpired records: global ones always; workflow, thread and run ones only for the
 * listed definitions and only under the target's id for that scope (a missing id matches none).
 */
const LOAD_SQL = `
  SELECT r.id, r.definition_id, d.slug, r.value, d.schema, d.updated_at AS definition_updated_at
    FROM memory_records r
    JOIN memory_definitions d ON d.id = r.definition_id
   WHERE r.owner_id = ?
     AND (r.expires_at IS NULL OR r.expires_at > ?::timestamptz)
     AND ((d.scope = 'global' AND r.scope_key = '')
          OR (d.id = ANY(?::uuid[])
              AND ((d.scope = 'workflow' AND r.scope_key = ?)
                OR (d.scope = 'thread' AND r.scope_key = ?)
                OR (d.scope = 'run' AND r.scope_key = ?))))
   ORDER BY d.slug`;

export async function loadLiveRecords(db: Knex, target: MemoryTarget, definitionIds: string[], now: Date): Promise<LoadedRow[]> {
  const bindings = [
    target.ownerId,
    now.toISOString(),
    definitionIds,
    target.workflowId ?? null,
    target.threadId ?? null,
    target.runId ?? null,
  ];
  const result = await db.raw<{ rows: LoadedRow[] }>(LOAD_SQL, bindings);
  return result.rows;
}
