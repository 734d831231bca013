import assert from 'node:assert/strict';
import { inject } from 'light-my-request';
import pino from 'pino';
import { after, before, test } from 'node:test';
import { buildApp } from '../../host/app.ts';
import { migrateToLatest } from '../../host/db/migration-source.ts';
import { createServices } from '../../host/services.ts';
import { createTestDatabase, type TestDatabase } from '../support/test-database.ts';

let database: TestDatabase;
before(async () => (database = await createTestDatabase({ migrate: false })));
after(() => database.close());

test('readiness answers 503 while migrations are pending, liveness still 200', async () => {
  const services = createServices({ db: database.db, logger: pino({ level: 'silent' }) });
  const handler = buildApp(services, { authSecret: 'x'.repeat(32), maxBodyBytes: 1024 }).callback();
  const ready = await inject(handler, { url: '/health/ready' });
  assert.equal(ready.statusCode, 503);
  assert.equal(ready.json().error.code, 'BOT_ERR_HEALTH_NOT_READY');
  assert.equal((await inject(handler, { url: '/health/live' })).statusCode, 200);
});

test('readiness answers 503 while start-up holds it, until the work settles or its deadline passes', async () => {
  await migrateToLatest(database.db);
  const services = createServices({ db: database.db, logger: pino({ level: 'silent' }) });
  const handler = buildApp(services, { authSecret: 'x'.repeat(32), maxBodyBytes: 1024 }).callback();
  assert.equal((await inject(handler, { url: '/health/ready' })).statusCode, 200, 'nothing held: ready');

  let finish!: () => void;
  services.readiness.holdUntil('channels', new Promise<void>((resolve) => (finish = resolve)), 60_000);
  const held = await inject(handler, { url: '/health/ready' });
  assert.equal(held.statusCode, 503);
  assert.match(held.json().error.message, /Still starting: channels/);
  finish();
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal((await inject(handler, { url: '/health/ready' })).statusCode, 200, 'released when the work settles');

  // A deadline with room: on a busy machine one request can take longer than a few milliseconds.
  services.readiness.holdUntil('channels', new Promise(() => {}), 500);
  assert.equal((await inject(handler, { url: '/health/ready' })).statusCode, 503);
  assert.ok(await readyWithin(handler, 10_000), 'released at the deadline, never held for ever');
});

/** Asks until the host answers ready, or the time is up. */
async function readyWithin(handler: Parameters<typeof inject>[0], timeoutMs: number): Promise<boolean> {
  for (const giveUpAt = Date.now() + timeoutMs; Date.now() < giveUpAt; ) {
    if ((await inject(handler, { url: '/health/ready' })).statusCode === 200) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return false;
}
