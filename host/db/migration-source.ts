import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Knex } from 'knex';
import pg from 'pg';

const MIGRATIONS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');
const MIGRATION_FILE = /^\d{14}_[a-z0-9_]+\.ts$/;

/**
 * Lists `YYYYMMDDHHMMSS_<what>.ts` files in `migrations/` in name order and imports them as ES
 * modules (knex's own loader guesses between require and import, which breaks under tsx).
 */
export const migrationSource: Knex.MigrationSource<string> = {
  async getMigrations() {
    return (await readdir(MIGRATIONS_DIR)).filter((file) => MIGRATION_FILE.test(file)).sort();
  },
  getMigrationName(file) {
    return file.replace(/\.ts$/, '');
  },
  async getMigration(file) {
    return (await import(pathToFileURL(path.join(MIGRATIONS_DIR, file)).href)) as Knex.Migration;
  },
};

/** Advisory lock key every host takes to migrate: "botmigr" in ASCII. */
const MIGRATION_LOCK_KEY = 0x626f746d696772n;

/**
 * Applies every pending migration, one host at a time: hosts starting
 * together on a fresh database would otherwise race to create knex's own tables (knex's
 * migration lock lives in them, and refuses rather than waits). The lock is a session advisory
 * lock on a connection of its own, outside the pool, so the migrations may use every pooled one.
 */
export async function migrateToLatest(db: Knex): Promise<void> {
  const lock = new pg.Client((db.client as { config: Knex.Config }).config.connection as pg.ClientConfig);
  await lock.connect();
  try {
    await lock.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY.toString()]);
    await db.migrate.latest({ migrationSource });
  } finally {
    // Ending the session releases the lock, whatever happened.
    await lock.end();
  }
}

/** True when no migration is pending: part of readiness. */
export async function migrationsApplied(db: Knex): Promise<boolean> {
  const [, pending] = (await db.migrate.list({ migrationSource })) as [unknown[], unknown[]];
  return pending.length === 0;
}
