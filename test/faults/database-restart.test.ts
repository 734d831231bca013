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

const SUBSCRIBERS = ['ada', 'bob', 'cyd', 'dee', 'eve', 'fay'];
const ROUNDS = 8;
const nameOf = (subscriber: string, round: number) => `${subscriber[0]!.toUpperCase()}${subscriber.slice(1)}${round}`;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

test('PostgreSQL stopped and started under load: 503s meanwhile, never a 200, the host recovers by itself, everything acknowledged answered once and in order', async (t) => {
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
  // A slow platform keeps sends in flight when the database goes.
  platform.respondAfterMs = 50;

  // The database's state as the posters see it: a post that both started and ended inside the
  // outage must not be acknowledged.
  let down = false;
  let outageGeneration = 0;
  const duringOutage: number[] = [];
  const acknowledged: string[] = [];
  // Each subscriber sends its messages one after another and, like a platform, sends a message
  // again until it is acknowledged.
  const conversation = async (subscriber: string) => {
    for (let round = 0; round < ROUNDS; round += 1) {
      const id = `${subscriber}-${round}`;
      for (;;) {
        const startedDown = down ? outageGeneration : -1;
        const status = await postSignedWebhook(host.url, sourceRef, [sampleEvent(id, subscriber, `my name is ${nameOf(subscriber, round)}`)]).catch(() => 0);
        if (startedDown >= 0 && down && outageGeneration === startedDown) duringOutage.push(status);
        if (status === 200) break;
        await pause(100);
      }
      acknowledged.push(id);
      await pause(30);
    }
  };
  const load = Promise.all(SUBSCRIBERS.map(conversation));

  while (acknowledged.length < SUBSCRIBERS.length * 2) await pause(20);
  await server.stop();
  down = true;
  outageGeneration += 1;
  await pause(1_000);
  down = false;
  server = await startEmbeddedPostgres({ dir: path.join(dir, 'pg'), port, persistent: true });
  await load;

  t.diagnostic(`during the outage: ${duringOutage.length} posts, statuses ${[...new Set(duringOutage)].join(', ')}`);
  assert.ok(duringOutage.length > 0, 'webhooks arrived while the database was down: otherwise this test proves nothing');
  assert.ok(duringOutage.every((status) => status === 503), `no 200 for an event that could not be committed: ${duringOutage.join(', ')}`);
  assert.equal(host.child.exitCode, null, 'the host is still running');

  const db = createKnex({ url: server.url, poolMax: 2 });
  try {
    await waitUntilFinished(db, acknowledged, 30_000);
  } finally {
    await db.destroy();
  }
  const delivered = platform.delivered();
  assert.equal(delivered.length, SUBSCRIBERS.length * ROUNDS, 'every acknowledged event answered once');
  for (const subscriber of SUBSCRIBERS) {
    const got = delivered.filter((message) => message.body.recipient.id === subscriber).map((message) => message.body.message.text);
    assert.deepEqual(got, Array.from({ length: ROUNDS }, (_, round) => `Hello ${nameOf(subscriber, round)}!`), `${subscriber}: in message order`);
  }
  const failedClaims = host.output().split('\n').filter((line) => line.includes('could not claim inbound events')).length;
  t.diagnostic(`claims that failed while the database was away: ${failedClaims}`);
});
