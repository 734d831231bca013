import type { Knex } from 'knex';
import { PreparedStatement } from '../../db/prepared-statement.ts';
import type { MemoryDefinition, MemorySchema } from '../definitions/memory-definition.ts';
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

/** A memory definition as a run binds it to a `kind: memory` def. */
export type LoadedDefinition = Pick<MemoryDefinition, 'id' | 'name' | 'slug' | 'scope' | 'schema'>;

/** Either half of the statement below; `kind` tells which. Columns a half has no use for are null. */
type LoadRow = LoadedRow & Pick<LoadedDefinition, 'name' | 'scope'> & { kind: 'record' | 'definition' };

/**
 * A target's unexpired records: global ones always; workflow, thread and run ones only for the
 * listed definitions and only under the target's id for that scope (a missing id matches none).
 * Then, in the same round trip, the definitions asked for by id (a run binds its `kind: memory`
 * defs to them): a run with memory reads all it needs before its first step with one statement.
 */
const LOAD = new PreparedStatement<LoadRow>(
  'memory-load-records-and-definitions',
  `
  SELECT 'record' AS kind, r.id, r.definition_id, d.slug, r.value, d.schema, d.updated_at AS definition_updated_at,
         NULL AS name, NULL AS scope
    FROM memory_records r
    JOIN memory_definitions d ON d.id = r.definition_id
   WHERE r.owner_id = ?
     AND (r.expires_at IS NULL OR r.expires_at > ?::timestamptz)
     AND ((d.scope = 'global' AND r.scope_key = '')
          OR (d.id = ANY(?::uuid[])
              AND ((d.scope = 'workflow' AND r.scope_key = ?)
                OR (d.scope = 'thread' AND r.scope_key = ?)
                OR (d.scope = 'run' AND r.scope_key = ?))))
  UNION ALL
  SELECT 'definition', d.id, d.id, d.slug, NULL, d.schema, d.updated_at, d.name, d.scope
    FROM memory_definitions d
   WHERE d.id = ANY(?::uuid[])
   ORDER BY slug`,
);

export interface LoadQuery {
  /** Workflow, thread and run definitions whose records to load besides the global ones; valid UUIDs. */
  definitionIds: string[];
  /** Also read those definitions (the ones that still exist). */
  withDefinitions: boolean;
}

export interface LoadedRecordsAndDefinitions {
  records: LoadedRow[];
  definitions: LoadedDefinition[];
}

export async function loadLiveRecords(db: Knex, target: MemoryTarget, query: LoadQuery, now: Date): Promise<LoadedRecordsAndDefinitions> {
  const bindings = [
    target.ownerId,
    now.toISOString(),
    query.definitionIds,
    target.workflowId ?? null,
    target.threadId ?? null,
    target.runId ?? null,
    query.withDefinitions ? query.definitionIds : [],
  ];
  const { rows } = await LOAD.run(db, bindings);
  const loaded: LoadedRecordsAndDefinitions = { records: [], definitions: [] };
  for (const row of rows) {
    if (row.kind === 'record') loaded.records.push(toLoadedRow(row));
    else loaded.definitions.push(toLoadedDefinition(row));
  }
  return loaded;
}

function toLoadedRow({ id, definition_id, slug, value, schema, definition_updated_at }: LoadRow): LoadedRow {
  return { id, definition_id, slug, value, schema, definition_updated_at };
}

function toLoadedDefinition({ id, name, slug, scope, schema }: LoadRow): LoadedDefinition {
  return { id, name, slug, scope, schema };
}
