import knex, { type Knex } from 'knex';
import type { Logger } from 'pino';
import pg from 'pg';

// Return BIGINT/COUNT(*) as numbers; our counts stay far below 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

export interface KnexOptions {
  url: string;
  poolMax?: number;
  /** Schema to put first on the search_path (tests isolate themselves this way). */
  searchPath?: string;
  /** Where knex's own warnings go (a failed connection attempt); its default is the console. */
  logger?: Pick<Logger, 'warn' | 'error' | 'debug'>;
}

export function createKnex({ url, poolMax = 10, searchPath, logger }: KnexOptions): Knex {
  return knex({
    ...(logger ? { log: knexLog(logger) } : {}),
    client: 'pg',
    connection: { connectionString: url, application_name: 'bot-host' },
    pool: { min: 0, max: poolMax },
    acquireConnectionTimeout: 10_000,
    ...(searchPath ? { searchPath: [searchPath] } : {}),
  });
}

/** knex's log calls as one-line structured records, tagged so they can be told apart. */
function knexLog(logger: NonNullable<KnexOptions['logger']>): Knex.Config['log'] {
  const fields = { component: 'knex' };
  return {
    warn: (message: unknown) => logger.warn(fields, String(message).split('\n')[0]),
    error: (message: unknown) => logger.error(fields, String(message).split('\n')[0]),
    deprecate: (method: unknown, alternative: unknown) => logger.warn(fields, `${String(method)} is deprecated; use ${String(alternative)}`),
    debug: (message: unknown) => logger.debug(fields, String(message)),
  };
}
