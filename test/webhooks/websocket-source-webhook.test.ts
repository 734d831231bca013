import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { pino } from 'pino';
import { createTestApp, type TestApp } from '../support/test-app.ts';

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SANDBOX = { callTimeoutMs: 5_000, maxHeapMb: 64, maxThreads: 1, maxQueue: 10, idleTimeoutMs: 1_000 };

const lines: { level: number; msg?: string; err?: { stack?: string } }[] = [];
let t: TestApp;
let web: { id: string; ref: string };
before(async () => {
  const logger = pino({ level: 'debug' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
  t = await createTestApp({ channels: { appRoot: REPO_ROOT, sandbox: SANDBOX }, logger });
  await t.services.channels.load();
  web = (await t.request('POST', '/api/sources', { as: 'admin', body: { name: 'Web chat', channel: 'web', settings: {} } })).body;
});
after(() => t.close());

describe('the webhook URL of a WebSocket channel’s source', () => {
  for (const method of ['GET', 'POST'] as const) {
    test(`${method} answers 405 BOT_ERR_WEBHOOK_NOT_ACCEPTED with an empty Allow, and logs nothing at info or above`, async () => {
      const logged = lines.length;
      const response = await t.request(method, `/api/webhook/${web.ref}`, method === 'POST' ? { body: '{"events":[]}', headers: { 'content-type': 'application/json' } } : {});
      assert.equal(response.status, 405, response.text);
      assert.equal(response.headers.allow, '');
      assert.equal(response.body.error.code, 'BOT_ERR_WEBHOOK_NOT_ACCEPTED');
      assert.match(response.body.error.message, /WebSocket/);
      const loud = lines.slice(logged).filter((line) => line.level >= 30 && (line.err?.stack !== undefined || line.level >= 40));
      assert.deepEqual(loud, [], 'no stack, no warning');
    });
  }

  test('nothing is stored in the inbox', async () => {
    await t.request('POST', `/api/webhook/${web.ref}`, { body: '{"events":[{"id":"x"}]}', headers: { 'content-type': 'application/json' } });
    assert.equal((await t.database.db('inbound_events').where({ source_id: web.id })).length, 0);
  });
});
