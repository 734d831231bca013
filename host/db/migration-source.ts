import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Knex } from 'knex';
import { migrateJobQueue } from '../dispatch/job-queue-schema.ts';

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

/**
 * Applies every pending migration, ours then the job engine's; safe to call from several hosts
 * at once (both lock).
 */
export async function migrateToLatest(db: Knex): Promise<void> {
  await db.migrate.latest({ migrationSource });
  await migrateJobQueue(db);
}

/** True when no migration is pending: part of readiness. */
export async function migrationsApplied(db: Knex): Promise<boolean> {
  const [, pending] = (await db.migrate.list({ migrationSource })) as [unknown[], unknown[]];
  return pending.length === 0;
}
