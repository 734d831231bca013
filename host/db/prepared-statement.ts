import type { Knex } from 'knex';
import type pg from 'pg';

/** What knex's client offers to borrow a connection: the pool's, or a transaction's own. */
interface ConnectionLender {
  acquireConnection(): Promise<pg.ClientBase>;
  releaseConnection(connection: pg.ClientBase): Promise<unknown>;
}

/** Text of each name used so far: pg caches a statement by name on each connection. */
const textByName = new Map<string, string>();

/**
 * A hot-path statement that PostgreSQL parses and plans once per connection instead of at every
 * call: knex sends each query unnamed, and for the dispatcher's CTEs planning cost as much as
 * running them (pg_stat_statements during `npm run bench -- e2e`: 6.1 s of planning to 8.5 s of
 * execution). Written with knex's `?` placeholders; runs on the pool, or inside a transaction
 * when given one (knex hands out the transaction's connection).
 * @example
 * const claim = new PreparedStatement<{ id: string }>('claim-event', 'UPDATE … WHERE id = ? RETURNING id');
 * const { rows } = await claim.run(db, [id]);
 */
export class PreparedStatement<Row> {
  readonly #name: string;
  readonly #text: string;

  constructor(name: string, sql: string) {
    // One name for two texts would run the first text on connections that prepared it: a
    // programming error. The same statement built twice (two services in one process) is fine.
    const text = toPositional(sql);
    const taken = textByName.get(name);
    if (taken !== undefined && taken !== text) throw new Error(`A prepared statement is already named "${name}" with another text`);
    textByName.set(name, text);
    this.#name = name;
    this.#text = text;
  }

  async run(db: Knex | Knex.Transaction, values: unknown[]): Promise<{ rows: Row[]; rowCount: number }> {
    const lender = db.client as unknown as ConnectionLender & { emit(event: 'query', query: { sql: string; bindings: unknown[]; name: string }): void };
    // knex forwards its client's `query` events to the knex instance: statement counters and
    // debug logging see these statements like any other.
    lender.emit('query', { sql: this.#text, bindings: values, name: this.#name });
    const connection = await lender.acquireConnection();
    try {
      const result = await connection.query<Row & pg.QueryResultRow>({ name: this.#name, text: this.#text, values });
      return { rows: result.rows, rowCount: result.rowCount ?? 0 };
    } finally {
      await lender.releaseConnection(connection);
    }
  }
}

/** `?` placeholders as `$1`, `$2`, …; `??` (knex identifiers) has no positional form. */
function toPositional(sql: string): string {
  if (sql.includes('??')) throw new Error('A prepared statement cannot use ?? identifier placeholders');
  let index = 0;
  return sql.replace(/\?/g, () => `$${++index}`);
}
