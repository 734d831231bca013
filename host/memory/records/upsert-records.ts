import type { Knex } from 'knex';
import { PreparedStatement } from '../../db/prepared-statement.ts';
import type { MemoryRecordRow } from './memory-record.ts';
import type { WriteRow } from './memory-write-rows.ts';

/** A stored record as an upsert returns it, before its slug is attached; `scope_key` completes its identity. */
export type UpsertedRow = Omit<MemoryRecordRow, 'slug'> & { scope_key: string };

/**
 * The rows travel as a single JSON parameter, so the statement stays the same (and cheap to plan)
 * whatever the batch size, with no limit on parameter count.
 */
const INSERT_ROWS = `
  INSERT INTO memory_records AS r
    (definition_id, owner_id, workflow_id, thread_id, run_id, scope_key, value, expires_at, created_at, updated_at)
  SELECT x.definition_id, x.owner_id, x.workflow_id, x.thread_id, x.run_id, x.scope_key, x.value, x.expires_at, ?::timestamptz, ?::timestamptz
    FROM jsonb_to_recordset(?::jsonb) AS x(definition_id uuid, owner_id text, workflow_id text, thread_id text,
                                           run_id text, scope_key text, value jsonb, expires_at timestamptz)`;

/**
 * The whole value is replaced and the expiry reset at every write. A row already past its expiry
 * is gone for every reader, so writing it again starts a new record (new id and creation time)
 * rather than reviving the old one.
 */
export const ON_CONFLICT_REPLACE = `
  ON CONFLICT (owner_id, definition_id, scope_key) DO UPDATE SET
    value = excluded.value,
    expires_at = excluded.expires_at,
    updated_at = excluded.updated_at,
    id = CASE WHEN r.expires_at <= excluded.updated_at THEN excluded.id ELSE r.id END,
    created_at = CASE WHEN r.expires_at <= excluded.updated_at THEN excluded.created_at ELSE r.created_at END
  RETURNING r.id, r.definition_id, r.owner_id, r.workflow_id, r.thread_id, r.run_id, r.value, r.expires_at, r.created_at, r.updated_at, r.scope_key`;

const UPSERT = new PreparedStatement<UpsertedRow>('memory-upsert-records', `${INSERT_ROWS} ${ON_CONFLICT_REPLACE}`);

/** Upserts rows already deduplicated by identity; returns them as stored. */
export async function upsertRecords(db: Knex, rows: WriteRow[], now: Date): Promise<UpsertedRow[]> {
  const at = now.toISOString();
  const result = await UPSERT.run(db, [at, at, JSON.stringify(rows)]);
  return result.rows;
}
