import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { after, before, test } from 'node:test';
import { createTestApp, type TestApp } from '../support/test-app.ts';

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
const MIXED_ROOT = fileURLToPath(new URL('../fixtures/plugin-roots/mixed', import.meta.url));
const SANDBOX = { callTimeoutMs: 5_000, maxHeapMb: 64, maxThreads: 1, maxQueue: 10, idleTimeoutMs: 1_000 };

let repo: TestApp;
let mixed: TestApp;
before(async () => {
  [repo, mixed] = await Promise.all([
    createTestApp({ channels: { appRoot: REPO_ROOT, sandbox: SANDBOX } }),
    createTestApp({ channels: { appRoot: MIXED_ROOT, sandbox: SANDBOX } }),
  ]);
  await Promise.all([repo.services.channels.load(), mixed.services.channels.load()]);
});
after(() => Promise.all([repo.close(), mixed.close()]));

test('the host discovers the sample channel package installed in the workspace', async () => {
  const response = await repo.request('GET', '/api/channel', { as: 'viewer' });
  assert.equal(response.status, 200);
  const sample = response.body.items.find((channel: { name: string }) => channel.name === 'sample');
  assert.ok(sample, JSON.stringify(response.body));
  assert.equal(sample.origin, 'package');
  assert.equal(sample.package.name, 'bot-channel-sample');
  assert.equal(sample.capabilities.maxTextLength, 2000);
  assert.equal(sample.settingsSchema.properties.webhook_secret['ui:widget'], 'password');
});

test('GET /api/channel lists only registered channels, never rejected ones', async () => {
  const response = await mixed.request('GET', '/api/channel', { as: 'viewer' });
  assert.deepEqual(response.body.items.map((channel: { name: string }) => channel.name).sort(), ['good', 'local_echo', 'own_peer']);
  assert.equal(response.body.total, 3);
});

test('diagnostics list every discovered file with its status and reason', async () => {
  const response = await mixed.request('GET', '/api/channel/diagnostics', { as: 'viewer' });
  assert.equal(response.status, 200);
  const notInjectable = response.body.items.find((entry: { file: string }) => entry.file.includes('bot-channel-not-injectable'));
  assert.equal(notInjectable.status, 'rejected');
  assert.equal(notInjectable.code, 'BOT_ERR_PLUGIN_NOT_INJECTABLE');
  assert.equal(response.body.items.filter((entry: { status: string }) => entry.status === 'registered').length, 3);
});

test('channel routes need a token with channel:read', async () => {
  assert.equal((await mixed.request('GET', '/api/channel')).status, 401);
  assert.equal((await mixed.request('GET', '/api/channel/diagnostics', { as: 'intruder' })).status, 403);
});
