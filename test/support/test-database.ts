import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import pg from 'pg';
import { createKnex } from '../../host/db/create-knex.ts';
import { migrateToLatest } from '../../host/db/migration-source.ts';

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
  const serverUrl = testServerUrl();
  const name = `bot_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  await adminQuery(serverUrl, `CREATE DATABASE ${name}`);
  const url = withDatabase(serverUrl, name);
  const db = createKnex({ url, poolMax: options.poolMax ?? 10 });
  if (options.migrate ?? true) await migrateToLatest(db);
  return {
    db,
    url,
    async close() {
      await db.destroy();
      await adminQuery(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}

export function withDatabase(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

async function adminQuery(serverUrl: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
