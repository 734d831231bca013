import type { Knex } from 'knex';
import pg from 'pg';
import { connectionStringOf } from './job-queue-schema.ts';

/**
 * A pg pool of its own for graphile-worker (knex keeps its pool to itself). A connection that
 * fails while idle, or a checked-out client erroring between queries, must not crash the
 * process: the query that needs it fails and is retried by the engine instead.
 */
export function createJobEnginePool(db: Knex, max: number, onError: (error: Error) => void): pg.Pool {
  const pool = new pg.Pool({ connectionString: connectionStringOf(db), max });
  pool.on('error', onError);
  pool.on('connect', (client) => client.on('error', onError));
  return pool;
}
