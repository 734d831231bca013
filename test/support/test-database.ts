import type { Knex } from 'knex';
import { createKnex } from '../../host/db/create-knex.ts';
import { migrateToLatest } from '../../host/db/migration-source.ts';
import { createScratchDatabase } from '../../scripts/scratch-database.ts';

export interface TestDatabase {
  db: Knex;
  /** Connection string of this file's own database. */
  url: string;
  close(): Promise<void>;
}

/** The server tests use: `npm test` sets TEST_DATABASE_URL (to an embedded server if need be). */
export function testServerUrl(): string {
  const url = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL;
  if (!url) throw new Error('Run the tests with `npm test`: it provides TEST_DATABASE_URL (embedded if none is set)');
  return url;
}

/**
 * A fresh database, migrated, for one test file; dropped by `close()`. Files never share data,
 * so they can run in parallel.
 */
export async function createTestDatabase(options: { migrate?: boolean; poolMax?: number } = {}): Promise<TestDatabase> {
  const { url, drop } = await createScratchDatabase(testServerUrl(), 'bot_test');
  const db = createKnex({ url, poolMax: options.poolMax ?? 10 });
  if (options.migrate ?? true) await migrateToLatest(db);
  return {
    db,
    url,
    async close() {
      await db.destroy();
      await drop();
    },
  };
}
