import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after } from 'node:test';
import { createTestDatabase, type TestDatabase } from '../support/test-database.ts';
import { FakePlatform } from './fake-platform.ts';

export interface CrashHostSetup {
  database: TestDatabase;
  platform: FakePlatform;
  /** The environment of a real `npm start` on this file's database, with a short lease and poll so a killed host's claims are taken over within seconds. */
  hostEnv: Record<string, string>;
  authSecret: string;
}

/**
 * What a test that kills a real host needs: its own database, a fake platform holding each
 * answer `platformDelayMs` (so sends are in flight when the host dies), and a data directory;
 * all removed after the file's tests.
 */
export async function crashHostSetup({ platformDelayMs }: { platformDelayMs: number }): Promise<CrashHostSetup> {
  const database = await createTestDatabase();
  const platform = await FakePlatform.start();
  platform.respondAfterMs = platformDelayMs;
  const dataDir = await mkdtemp(path.join(tmpdir(), 'bot-crash-'));
  after(async () => {
    await platform.close();
    await database.close();
    await rm(dataDir, { recursive: true, force: true });
  });
  const authSecret = 'crash-test-auth-secret-0123456789abcdef-0123';
  const hostEnv = {
    DATABASE_URL: database.url,
    BOT_DATA_DIR: dataDir,
    BOT_AUTH_SECRET: authSecret,
    BOT_DOWNLOAD_SECRET: 'crash-test-download-secret-0123456789abcdef',
    BOT_LOG_LEVEL: 'info',
    BOT_DISPATCH_LEASE_MS: '2000',
    BOT_DISPATCH_POLL_INTERVAL_MS: '200',
    BOT_SANDBOX_MAX_THREADS: '4',
  };
  return { database, platform, hostEnv, authSecret };
}
