import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { after, before, test } from 'node:test';
import pino from 'pino';
import { seedExamples } from '../../host/seed/seed-examples.ts';
import { seedWebChat } from '../../host/seed/seed-web-chat.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SANDBOX = { callTimeoutMs: 5_000, maxHeapMb: 64, maxThreads: 1, maxQueue: 10, idleTimeoutMs: 1_000 };

let t: TestApp;
before(async () => {
  t = await createTestApp({ channels: { appRoot: REPO_ROOT, sandbox: SANDBOX } });
  await t.services.channels.load();
});
after(() => t.close());

const deps = () => ({ ...t.services, logger: pino({ level: 'silent' }) });

test('the first start creates a web source on the greeting workflow; later starts find it and create nothing', async () => {
  const workflows = await seedExamples(t.services);
  const ref = await seedWebChat(deps(), workflows);
  const source = await t.database.db('sources').where({ ref }).first();
  assert.equal(source.channel, 'web');
  assert.equal(source.default_workflow_id, workflows!.get('Greeting'));
  assert.equal(await seedWebChat(deps(), undefined), ref);
  assert.equal((await t.database.db('sources').where({ channel: 'web' })).length, 1);
});

test('a seeded source the operator deleted stays deleted, and there is then no chat link', async () => {
  await t.database.db('sources').where({ channel: 'web' }).delete();
  assert.equal(await seedWebChat(deps(), undefined), undefined);
  assert.equal((await t.database.db('sources').where({ channel: 'web' })).length, 0);
});
