import type { Knex } from 'knex';
import { PreparedStatement } from '../../db/prepared-statement.ts';
import type { MemorySchema } from '../definitions/memory-definition.ts';
import type { MemoryTarget } from './memory-record.ts';

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
const LOAD = new PreparedStatement<LoadedRow>(
  'memory-load-live-records',
  `
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
   ORDER BY d.slug`,
);

export async function loadLiveRecords(db: Knex, target: MemoryTarget, definitionIds: string[], now: Date): Promise<LoadedRow[]> {
  const bindings = [
    target.ownerId,
    now.toISOString(),
    definitionIds,
    target.workflowId ?? null,
    target.threadId ?? null,
    target.runId ?? null,
  ];
  const { rows } = await LOAD.run(db, bindings);
  return rows;
}
