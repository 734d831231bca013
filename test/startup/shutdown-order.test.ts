import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { startHostProcess } from '../support/host-process.ts';
import { createTestDatabase } from '../support/test-database.ts';

/**
 * The order a SIGTERM stops the host in: what takes work in stops before what does the work.
 * HTTP and its sockets first (no new webhook), then the inbox flushes what it accepted, then the
 * dispatcher lets its events finish; the channels only after everything that calls them, their
 * egress after them, and the database pool last.
 */
const SHUTDOWN_ORDER = [
  'inbound file sweeper',
  'old live chat replies sweeper',
  'expired memory records sweeper',
  'websockets',
  'http server',
  'inbox',
  'dispatcher',
  'web chat hub',
  'workflow cache sync',
  'source cache sync',
  'channel sync',
  'channels',
  'plugin egress',
  'database pool',
];

test('SIGTERM stops the host part by part, in the reverse of the order they started', async (t) => {
  const database = await createTestDatabase();
  t.after(() => database.close());
  const dataDir = await mkdtemp(path.join(tmpdir(), 'bot-shutdown-order-'));
  t.after(() => rm(dataDir, { recursive: true, force: true }));
  const host = await startHostProcess({
    DATABASE_URL: database.url,
    BOT_DATA_DIR: dataDir,
    BOT_AUTH_SECRET: 'shutdown-order-test-auth-secret-0123456789abcdef',
    BOT_DOWNLOAD_SECRET: 'shutdown-order-test-download-secret-0123456789ab',
    BOT_LOG_LEVEL: 'debug',
  });
  assert.equal(await host.stop('SIGTERM'), 0);
  const stopped = host
    .output()
    .split('\n')
    .flatMap((line) => {
      try {
        const entry = JSON.parse(line) as { msg?: string; part?: string };
        return entry.msg === 'stopped' && entry.part ? [entry.part] : [];
      } catch {
        return [];
      }
    });
  assert.deepEqual(stopped, SHUTDOWN_ORDER);
  assert.match(host.output(), /bot host stopped/);
});
