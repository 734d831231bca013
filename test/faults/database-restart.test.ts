import assert from 'node:assert/strict';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../../host/db/embedded-postgres.ts';
import { createKnex } from '../../host/db/create-knex.ts';
import { startHostProcess } from '../support/host-process.ts';
import { sampleEvent } from '../dispatch/conversation-harness.ts';
import { waitUntilFinished } from '../dispatch/crash-snapshot.ts';
import { FakePlatform } from '../dispatch/fake-platform.ts';
import { postSignedWebhook, setUpGreetingOverHttp } from '../dispatch/greeting-over-http.ts';

// A PostgreSQL server of the test's own, stopped and started again under a running host.
const AUTH_SECRET = 'db-restart-auth-secret-0123456789abcdef-0123';
const dir = await mkdtemp(path.join(tmpdir(), 'bot-db-restart-'));
await chmod(dir, 0o755); // as root, the embedded PostgreSQL runs as `postgres` and must enter it
let server: EmbeddedDatabase = await startEmbeddedPostgres({ dir: path.join(dir, 'pg'), port: 0, persistent: true });
const port = Number(new URL(server.url).port);
const platform = await FakePlatform.start();
after(async () => {
  await platform.close();
  await server.stop().catch(() => undefined);
  await rm(dir, { recursive: true, force: true });
});

// Kept visible until fixed (issue 6): in about 3 runs of 4 the restart either kills the host
// (graphile-worker's batchFailJobs rejects with nobody awaiting it, and Node exits on the
// unhandled rejection) or strands jobs whose completion was lost while this live instance keeps
// them locked, so their events wait until the host restarts. The 503s during the outage hold.
const KNOWN_FAILURE = 'a PostgreSQL restart can kill the host or strand its locked jobs (graphile-worker)';

test('PostgreSQL stopped and started under a running host: webhooks get 503 meanwhile, never 200, and every acknowledged event is answered once', { todo: KNOWN_FAILURE }, async (t) => {
  const host = await startHostProcess({
    DATABASE_URL: server.url,
    BOT_DATA_DIR: path.join(dir, 'data'),
    BOT_AUTH_SECRET: AUTH_SECRET,
    BOT_DOWNLOAD_SECRET: 'db-restart-download-secret-0123456789abcdef',
    BOT_LOG_LEVEL: 'info',
    BOT_DISPATCH_LEASE_MS: '2000',
    BOT_DISPATCH_POLL_INTERVAL_MS: '200',
  });
  t.after(async () => {
    if (process.env.BOT_TEST_DUMP) await import('node:fs/promises').then((fs) => fs.writeFile(process.env.BOT_TEST_DUMP!, host.output()));
    await host.stop('SIGTERM');
  });
  const { sourceRef } = await setUpGreetingOverHttp({ url: host.url, authSecret: AUTH_SECRET }, platform.url);
  const acknowledged: string[] = [];
  const post = async (id: string) => {
    const status = await postSignedWebhook(host.url, sourceRef, [sampleEvent(id, `u-${id}`, `my name is ${id}`)]);
    if (status === 200) acknowledged.push(id);
    return status;
  };

  for (let index = 0; index < 5; index += 1) assert.equal(await post(`before-${index}`), 200);
  await server.stop();
  const during: number[] = [];
  for (let index = 0; index < 5; index += 1) during.push(await post(`during-${index}`));
  t.diagnostic(`while the database was down: ${during.join(', ')}`);
  assert.ok(during.every((status) => status === 503), `no 200 for an event that could not be committed: ${during.join(', ')}`);

  server = await startEmbeddedPostgres({ dir: path.join(dir, 'pg'), port, persistent: true });
  // The host reconnects by itself: webhooks are taken again.
  const deadline = Date.now() + 30_000;
  let status = 0;
  for (let index = 0; status !== 200 && Date.now() < deadline; index += 1) {
    status = await post(`after-${index}`);
    if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 200));
  }
  assert.equal(status, 200, 'webhooks are taken again after the database is back');

  const db = createKnex({ url: server.url, poolMax: 2 });
  try {
    await waitUntilFinished(db, acknowledged, 20_000);
    const delivered = platform.delivered().map((message) => message.body.recipient.id);
    assert.deepEqual([...delivered].sort(), acknowledged.map((id) => `u-${id}`).sort(), 'every acknowledged event answered once');
  } finally {
    await db.destroy();
  }
});
