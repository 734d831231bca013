import type { Knex } from 'knex';
import { isConnectionError } from '../errors/postgres-errors.ts';
import { storableJson } from '../json/storable.ts';
import { GroupCommit } from './group-commit.ts';
import { PreparedStatement } from './prepared-statement.ts';

export interface BatchedStatementOptions<Item, Row, Result> {
  /** Unique, as for PreparedStatement. */
  name: string;
  /**
   * SQL with exactly one placeholder, the rows as a jsonb array: read it with
   * `ROWS FROM (jsonb_to_recordset(?::jsonb) AS (a int, …)) WITH ORDINALITY AS x(a, …, ord)` so a
   * result can name its item (ord counts from 1).
   */
  sql: string;
  /**
   * The row an item contributes; its strings are made storable (see storableJson). Give times as
   * text (`date.toJSON()`): one Date among the rows takes JSON.stringify off its fast path.
   */
  toRow(item: Item): Record<string, unknown>;
  /** Each item's result from the statement's rows, in the items' order; by default nothing. */
  results?(rows: Row[], items: Item[]): Result[];
  /** Most rows in one statement (default 500). */
  maxRows?: number;
  /** Items of one key never share a statement (see GroupCommit's keyOf). */
  keyOf?(item: Item): string;
}

/**
 * A write that concurrent callers share: the rows submitted while the previous statement runs
 * go together in the next one, as one jsonb parameter of one prepared statement (group commit,
 * see GroupCommit). Under load, the dispatcher's per-run writes (run and step records, finishes,
 * sends marked) cost one round trip and one commit for many runs instead of one each; alone, a
 * write waits for nothing. Each `submit` resolves when its own row is committed, and rejects only
 * for its own failure: a batch refused for its data is retried row by row.
 *
 * An UPDATE joining its rows must also say `key = ANY(ARRAY(SELECT key FROM rows))`: planned once
 * for any batch, the statement assumes 100 rows from `jsonb_to_recordset` and would hash-join
 * them against a sequential scan of the whole table; the array condition makes it an index scan
 * once the table's statistics show more than a few pages. A plan made while they showed a small
 * table (never analyzed, autovacuum off) still scans it whole, at a cost that grows with it, until
 * an ANALYZE makes PostgreSQL plan the statement again.
 * `WITH x AS (SELECT * FROM jsonb_to_recordset(?::jsonb) AS x(id uuid, …)) UPDATE t SET … FROM x
 * WHERE t.id = x.id AND t.id = ANY(ARRAY(SELECT id FROM x))`.
 * @example
 * const finish = new BatchedStatement(db, { name: 'finish-runs', sql: 'UPDATE … FROM jsonb_to_recordset(?::jsonb) …', toRow: (run) => run });
 * await finish.submit({ id, status: 'succeeded' });
 */
export class BatchedStatement<Item, Row = never, Result = void> {
  readonly #commits: GroupCommit<Item, Result>;

  constructor(db: Knex, options: BatchedStatementOptions<Item, Row, Result>) {
    const statement = new PreparedStatement<Row>(options.name, options.sql);
    const results = options.results ?? ((_rows: Row[], items: Item[]) => items.map(() => undefined as Result));
    this.#commits = new GroupCommit<Item, Result>({
      writeBatch: async (items) => {
        const { rows } = await statement.run(db, [storableJson(items.map(options.toRow))]);
        return results(rows, items);
      },
      rowsOf: () => 1,
      maxRows: options.maxRows ?? 500,
      retryAlone: (error) => !isConnectionError(error),
      ...(options.keyOf ? { keyOf: options.keyOf } : {}),
    });
  }

  /** Resolves with this item's result once the statement that carried it has committed. */
  submit(item: Item): Promise<Result> {
    return this.#commits.submit(item);
  }
}
