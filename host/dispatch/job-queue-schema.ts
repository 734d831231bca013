import type { Knex } from 'knex';
import { runMigrations } from 'graphile-worker';
import { createJobEnginePool } from './job-engine-pool.ts';
import { jobEngineLogger } from './job-engine-logger.ts';

const QUIET = { error: () => undefined, warn: () => undefined, debug: () => undefined };

/** The connection settings knex was made with, for the job engine's own pool. */
export function connectionStringOf(db: Knex): string {
  const connection = db.client.config.connection as { connectionString?: string } | string;
  const url = typeof connection === 'string' ? connection : connection.connectionString;
  if (!url) throw new Error('The database connection has no connection string');
  return url;
}

/**
 * Installs or upgrades graphile-worker's schema. Part of our migrations: the inbox enqueues its
 * jobs with `graphile_worker.add_jobs()` in the transaction that commits the events, so the
 * schema must exist before the first webhook, on every instance and in every test database.
 */
export async function migrateJobQueue(db: Knex): Promise<void> {
  const pool = createJobEnginePool(db, 1, () => undefined);
  try {
    await runMigrations({ pgPool: pool, logger: jobEngineLogger(QUIET) });
  } finally {
    await pool.end();
  }
}
