import knex, { type Knex } from 'knex';
import pg from 'pg';

// Return BIGINT/COUNT(*) as numbers; our counts stay far below 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

export interface KnexOptions {
  url: string;
  poolMax?: number;
  /** Schema to put first on the search_path (tests isolate themselves this way). */
  searchPath?: string;
}

export function createKnex({ url, poolMax = 10, searchPath }: KnexOptions): Knex {
  return knex({
    client: 'pg',
    connection: { connectionString: url, application_name: 'bot-host' },
    pool: { min: 0, max: poolMax },
    acquireConnectionTimeout: 10_000,
    ...(searchPath ? { searchPath: [searchPath] } : {}),
  });
}
