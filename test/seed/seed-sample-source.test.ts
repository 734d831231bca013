import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { after, before, test } from 'node:test';
import pino from 'pino';
import { seedExamples } from '../../host/seed/seed-examples.ts';
import { SAMPLE_DEMO_SOURCE } from '../../host/seed/sample-demo-source.ts';
import { seedSampleSource } from '../../host/seed/seed-sample-source.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SANDBOX = { callTimeoutMs: 5_000, maxHeapMb: 64, maxThreads: 1, maxQueue: 10, idleTimeoutMs: 1_000, startTimeoutMs: 60_000 };
const PLATFORM = 'http://127.0.0.1:4199';

let t: TestApp;
before(async () => {
  t = await createTestApp({ channels: { appRoot: REPO_ROOT, sandbox: SANDBOX } });
  await t.services.channels.load();
});
after(() => t.close());

const deps = () => ({ ...t.services, logger: pino({ level: 'silent' }) });

test('seeds nothing while the sample channel is not running, so a later start still can', async () => {
  const notRunning = { ...deps(), channels: { running: () => undefined } };
  assert.equal(await seedSampleSource(notRunning, PLATFORM), undefined);
  assert.equal((await t.database.db('sources').where({ channel: 'sample' })).length, 0);
});

test('the first start creates an active sample source under the fixed ref, on the greeting workflow, sending to the platform URL', async () => {
  const workflows = await seedExamples(t.services);
  assert.deepEqual(await seedSampleSource(deps(), PLATFORM), { ref: SAMPLE_DEMO_SOURCE.ref, apiUrl: PLATFORM });
  const source = await t.database.db('sources').where({ ref: SAMPLE_DEMO_SOURCE.ref }).first();
  assert.equal(source.channel, 'sample');
  assert.equal(source.active, true);
  assert.equal(source.default_workflow_id, workflows!.get('Greeting'));
  assert.equal(source.settings.api_key, SAMPLE_DEMO_SOURCE.apiKey);
  assert.equal(source.settings.webhook_secret, SAMPLE_DEMO_SOURCE.webhookSecret);
  assert.deepEqual(source.egress_grants, ['api_url'], 'its platform URL is granted egress, as an operator typing it would');
});

test('a later start finds it and creates nothing, even with another platform URL', async () => {
  assert.deepEqual(await seedSampleSource(deps(), 'http://127.0.0.1:4200'), { ref: SAMPLE_DEMO_SOURCE.ref, apiUrl: PLATFORM });
  assert.equal((await t.database.db('sources').where({ channel: 'sample' })).length, 1);
});

test('a seeded source the operator deleted stays deleted, and nothing is then offered', async () => {
  await t.database.db('sources').where({ ref: SAMPLE_DEMO_SOURCE.ref }).delete();
  assert.equal(await seedSampleSource(deps(), PLATFORM), undefined);
  assert.equal((await t.database.db('sources').where({ channel: 'sample' })).length, 0);
});
