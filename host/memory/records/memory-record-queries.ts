import type { Knex } from 'knex';
import { BatchedStatement } from '../../db/batched-statement.ts';
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
  /**
   * Written after the definition's last change: the write checked the value against the schema
   * the definition still has (every write path validates against the current version), so the
   * load need not check it again.
   */
  written_under_current_schema: boolean;
}

/** A memory definition as a run binds it to a `kind: memory` def. */
export type LoadedDefinition = Pick<MemoryDefinition, 'id' | 'name' | 'slug' | 'scope' | 'schema'>;

/** Either half of the statement below; `kind` tells which, `ord` whose load it answers. Columns a half has no use for are null. */
type LoadRow = LoadedRow & Pick<LoadedDefinition, 'name' | 'scope'> & { kind: 'record' | 'definition'; ord: number };

/** One load as a row of the batched statement. */
interface TargetRow {
  owner_id: string;
  workflow_id: string | null;
  thread_id: string | null;
  run_id: string | null;
  definition_ids: string[];
  with_definitions: boolean;
  now: string;
}

/**
 * For each target: its unexpired records, global ones always, workflow, thread and run ones only
 * for the listed definitions and only under the target's id for that scope (a missing id matches
 * none); then, in the same round trip, the definitions asked for by id (a run binds its
 * `kind: memory` defs to them). `ord` names the target each row answers.
 *
 * Each target's records are a LATERAL probe of the identity index (owner_id first) and of the
 * definitions' primary key, kept from being flattened into a join by `OFFSET 0`: the host's
 * generic plan is made once, often while the tables are empty, and a join would then be planned
 * as a hash over a sequential scan of every record. Several targets may share one owner (runs in
 * several threads at once); each gets its own rows.
 *
 * `written_under_current_schema` is strictly later, not equal: a definition changed in the same
 * millisecond as a write validated against its previous schema gets that same timestamp (one
 * clock, millisecond precision), and such a record must be checked again.
 */
const LOAD_SQL = `
  WITH t AS MATERIALIZED (
    SELECT * FROM ROWS FROM (jsonb_to_recordset(?::jsonb)
        AS (owner_id text, workflow_id text, thread_id text, run_id text, definition_ids uuid[], with_definitions boolean, now timestamptz))
      WITH ORDINALITY AS t(owner_id, workflow_id, thread_id, run_id, definition_ids, with_definitions, now, ord)
  )
  SELECT t.ord::int AS ord, 'record' AS kind, r.id, r.definition_id, r.slug, r.value, r.schema, r.definition_updated_at,
         r.written_under_current_schema, NULL AS name, NULL AS scope
    FROM t
    CROSS JOIN LATERAL (
      SELECT r.id, r.definition_id, d.slug, r.value, d.schema, d.updated_at AS definition_updated_at,
             r.updated_at > d.updated_at AS written_under_current_schema
        FROM memory_records r
        JOIN memory_definitions d ON d.id = r.definition_id
       WHERE r.owner_id = t.owner_id
         AND (r.expires_at IS NULL OR r.expires_at > t.now)
         AND ((d.scope = 'global' AND r.scope_key = '')
              OR (d.id = ANY(t.definition_ids)
                  AND ((d.scope = 'workflow' AND r.scope_key = t.workflow_id)
                    OR (d.scope = 'thread' AND r.scope_key = t.thread_id)
                    OR (d.scope = 'run' AND r.scope_key = t.run_id))))
      OFFSET 0) r
  UNION ALL
  SELECT t.ord::int, 'definition', d.id, d.id, d.slug, NULL, d.schema, d.updated_at, NULL, d.name, d.scope
    FROM t
    JOIN memory_definitions d ON d.id = ANY(t.definition_ids)
   WHERE t.with_definitions
   ORDER BY ord, slug`;

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

interface LoadRequest {
  target: MemoryTarget;
  query: LoadQuery;
  now: Date;
}

/**
 * Reads what a run's memory needs before its first step, one statement for all the runs that
 * open their memory at once (group commit, see BatchedStatement): under load, a message's memory
 * costs a fraction of a round trip instead of one each. Alone, a load waits for nothing.
 * @example const { records, definitions } = await loader.load({ ownerId, threadId }, { definitionIds, withDefinitions: true }, now)
 */
export class LiveRecordsLoader {
  readonly #loads: BatchedStatement<LoadRequest, LoadRow, LoadedRecordsAndDefinitions>;

  constructor(db: Knex) {
    this.#loads = new BatchedStatement(db, {
      name: 'memory-load-records-and-definitions',
      sql: LOAD_SQL,
      toRow: toTargetRow,
      results: splitByLoad,
    });
  }

  load(target: MemoryTarget, query: LoadQuery, now: Date): Promise<LoadedRecordsAndDefinitions> {
    return this.#loads.submit({ target, query, now });
  }
}

function toTargetRow({ target, query, now }: LoadRequest): TargetRow & Record<string, unknown> {
  return {
    owner_id: target.ownerId,
    workflow_id: target.workflowId ?? null,
    thread_id: target.threadId ?? null,
    run_id: target.runId ?? null,
    definition_ids: query.definitionIds,
    with_definitions: query.withDefinitions,
    now: now.toISOString(),
  };
}

/** Each load's rows, in the loads' order (`ord` counts from 1); the statement sorts each load's by slug. */
function splitByLoad(rows: LoadRow[], requests: LoadRequest[]): LoadedRecordsAndDefinitions[] {
  const loaded = requests.map((): LoadedRecordsAndDefinitions => ({ records: [], definitions: [] }));
  for (const row of rows) {
    const into = loaded[row.ord - 1]!;
    if (row.kind === 'record') into.records.push(toLoadedRow(row));
    else into.definitions.push(toLoadedDefinition(row));
  }
  return loaded;
}

function toLoadedRow({ id, definition_id, slug, value, schema, definition_updated_at, written_under_current_schema }: LoadRow): LoadedRow {
  return { id, definition_id, slug, value, schema, definition_updated_at, written_under_current_schema };
}

function toLoadedDefinition({ id, name, slug, scope, schema }: LoadRow): LoadedDefinition {
  return { id, name, slug, scope, schema };
}
