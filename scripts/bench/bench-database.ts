import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Knex } from 'knex';
import { createKnex } from '../../host/db/create-knex.ts';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../../host/db/embedded-postgres.ts';
import { migrateToLatest } from '../../host/db/migration-source.ts';
import { createScratchDatabase } from '../scratch-database.ts';

export interface BenchDatabase {
  db: Knex;
  /** Connection string of the fresh database, for a host run as a child process. */
  url: string;
  /** Which server it runs on, for the report (no password). */
  server: string;
  close(): Promise<void>;
}

/**
 * A fresh, migrated database for one benchmark on the project's own Postgres: TEST_DATABASE_URL
 * or DATABASE_URL when set, else an embedded server started for the run. Dropped on close.
 */
export async function openBenchDatabase({ poolMax }: { poolMax: number }): Promise<BenchDatabase> {
  const server = await startServer();
  const scratch = await createScratchDatabase(server.url, 'bot_bench');
  const db = createKnex({ url: scratch.url, poolMax });
  await migrateToLatest(db);
  return {
    db,
    url: scratch.url,
    server: server.label,
    async close() {
      await db.destroy();
      await scratch.drop();
      await server.stop();
    },
  };
}

async function startServer(): Promise<{ url: string; label: string; stop(): Promise<void> }> {
  const url = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL;
  if (url) return { url, label: `${new URL(url).host} (from the environment)`, stop: async () => {} };
  const dir = await mkdtemp(path.join(tmpdir(), 'bot-bench-pg-'));
  const embedded: EmbeddedDatabase = await startEmbeddedPostgres({ dir, port: 0, persistent: false });
  return {
    // The superuser: the benchmark creates a database of its own on it.
    url: embedded.adminUrl,
    label: `embedded, ${new URL(embedded.adminUrl).host}`,
    async stop() {
      await embedded.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
