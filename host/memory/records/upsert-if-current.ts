import type { Knex } from 'knex';
import { BatchedStatement } from '../../db/batched-statement.ts';
import { PreparedStatement } from '../../db/prepared-statement.ts';
import { storableJson, storableText } from '../../json/storable.ts';
import type { WriteRow } from './memory-write-rows.ts';
import { ON_CONFLICT_REPLACE, type UpsertedRow } from './upsert-records.ts';

/** The definition version a write was checked against (`updated_at` exactly as Postgres prints it). */
export interface DefinitionVersion {
  id: string;
  version: string;
}

/** One all-or-none write: rows already deduplicated by identity, and the versions they were checked against. */
export interface UpsertCall {
  rows: WriteRow[];
  versions: DefinitionVersion[];
  now: Date;
}

/** One call as a row of the statement. */
interface CallRow {
  versions: DefinitionVersion[];
  rows: WriteRow[];
  at: string;
}

/**
 * Several calls' upserts in one statement, each written only when every definition it names
 * still has the version its rows were built from. `FOR SHARE` holds those definitions until the
 * statement commits, and in READ COMMITTED a lock that waited on a concurrent update returns the
 * row's new version, which no longer matches: a changed or deleted definition leaves its calls
 * out of `<name>_current`, and none of their rows goes in, while the other calls' rows do. All or
 * none per call, in one autocommit statement.
 *
 * The rows go in sorted by identity, as one call's rows always are (see buildWriteRows), so
 * statements that touch the same records lock them in the same order instead of deadlocking.
 * Each definition is a LATERAL probe of the primary key (a locking subquery is never flattened
 * into a join), so the generic plan, made once and often on empty tables, does not scan them.
 *
 * As CTEs (for a `WITH` list, named after `name`), so another statement can commit its own rows
 * with the upsert (a step's record, see RunRecords): the relation `calls` has one row per call
 * (ord, versions jsonb, rows jsonb, at timestamptz); `${name}_current` lists the ords of the calls
 * written, `${name}_written` their rows as stored.
 */
export const UPSERT_IF_CURRENT_CTES = (calls: string, name: string) => `
  ${name}_wanted AS MATERIALIZED (
    SELECT c.ord, v.id, v.version
      FROM ${calls} AS c CROSS JOIN LATERAL jsonb_to_recordset(c.versions) AS v(id uuid, version timestamptz)
  ), ${name}_definitions AS MATERIALIZED (
    SELECT d.id, d.updated_at
      FROM (SELECT DISTINCT id FROM ${name}_wanted) w
     CROSS JOIN LATERAL (SELECT d.id, d.updated_at FROM memory_definitions d WHERE d.id = w.id FOR SHARE OF d) d
  ), ${name}_current AS MATERIALIZED (
    SELECT w.ord FROM ${name}_wanted w
      LEFT JOIN ${name}_definitions d ON d.id = w.id AND d.updated_at = w.version
     GROUP BY w.ord
    HAVING count(d.id) = count(*)
  ), ${name}_written AS (
    INSERT INTO memory_records AS r
      (definition_id, owner_id, workflow_id, thread_id, run_id, scope_key, value, expires_at, created_at, updated_at)
    SELECT x.definition_id, x.owner_id, x.workflow_id, x.thread_id, x.run_id, x.scope_key, x.value, x.expires_at, c.at, c.at
      FROM ${calls} AS c
      JOIN ${name}_current USING (ord)
     CROSS JOIN LATERAL jsonb_to_recordset(c.rows) AS x(definition_id uuid, owner_id text, workflow_id text, thread_id text,
                                                        run_id text, scope_key text, value jsonb, expires_at timestamptz)
     ORDER BY x.owner_id COLLATE "C", x.definition_id, x.scope_key COLLATE "C"
    ${ON_CONFLICT_REPLACE}
  )`;

const UPSERT_IF_CURRENT_SQL = `
  WITH c AS MATERIALIZED (
    SELECT * FROM ROWS FROM (jsonb_to_recordset(?::jsonb) AS (versions jsonb, rows jsonb, at timestamptz))
      WITH ORDINALITY AS c(versions, rows, at, ord)
  ), ${UPSERT_IF_CURRENT_CTES('c', 'upsert')}
  SELECT * FROM upsert_written`;

const STATEMENT_NAME = 'memory-upsert-records-if-current';
const UPSERT_IF_CURRENT = new PreparedStatement<UpsertedRow>(STATEMENT_NAME, UPSERT_IF_CURRENT_SQL);

/**
 * Upserts one call's rows if every definition is still at its given version; returns them as
 * stored, or an empty list (and writes nothing) when any is not.
 */
export async function upsertRecordsIfCurrent(db: Knex, call: UpsertCall): Promise<UpsertedRow[]> {
  const { rows } = await UPSERT_IF_CURRENT.run(db, [storableJson([toCallRow(call)])]);
  return rowsByCall(rows, [call])[0]!;
}

/**
 * The optimistic upsert shared by concurrent writers (group commit, see BatchedStatement): the
 * calls of the runs in flight cost one round trip and one commit. A call of one owner never
 * shares a statement with another of that owner, since one upsert may not touch a record twice;
 * it waits for the next statement, so one owner's writes land in the order they were made. A
 * call for several owners (an admin batch) runs alone.
 * @example const written = await upserts.submit({ rows, versions, now }); // [] when a definition changed
 */
export class CurrentVersionUpserts {
  readonly #db: Knex;
  readonly #batched: BatchedStatement<UpsertCall, UpsertedRow, UpsertedRow[]>;

  constructor(db: Knex) {
    this.#db = db;
    this.#batched = new BatchedStatement(db, {
      name: STATEMENT_NAME,
      sql: UPSERT_IF_CURRENT_SQL,
      toRow: toCallRow,
      results: rowsByCall,
      keyOf: (call) => call.rows[0]!.owner_id,
    });
  }

  /** The call's rows as stored, or an empty list when a definition changed and nothing was written. */
  submit(call: UpsertCall): Promise<UpsertedRow[]> {
    const owner = call.rows[0]?.owner_id;
    if (owner === undefined) return Promise.resolve([]);
    return call.rows.every((row) => row.owner_id === owner) ? this.#batched.submit(call) : upsertRecordsIfCurrent(this.#db, call);
  }
}

export function toCallRow({ rows, versions, now }: UpsertCall): CallRow & Record<string, unknown> {
  const distinct = [...new Map(versions.map((entry) => [`${entry.id} ${entry.version}`, entry])).values()];
  return { versions: distinct, rows, at: now.toISOString() };
}

/** Each call's stored rows, in its own rows' order, found by identity (calls sharing a statement never share one). */
export function rowsByCall(stored: UpsertedRow[], calls: UpsertCall[]): UpsertedRow[][] {
  const byIdentity = new Map(stored.map((row) => [identityOf(row), row]));
  return calls.map((call) => call.rows.flatMap((row) => byIdentity.get(identityOf(row)) ?? []));
}

/** As stored: the statement's text went through storableJson. */
function identityOf(row: { owner_id: string; definition_id: string; scope_key: string }): string {
  return `${storableText(row.owner_id)}\u0000${row.definition_id}\u0000${storableText(row.scope_key)}`;
}
