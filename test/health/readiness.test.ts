import assert from 'node:assert/strict';
import { inject } from 'light-my-request';
import pino from 'pino';
import { after, before, test } from 'node:test';
import { buildApp } from '../../host/app.ts';
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
