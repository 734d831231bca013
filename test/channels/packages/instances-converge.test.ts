/**
 * The installed set lives in PostgreSQL with each tarball: every instance, each with a package
 * folder of its own, converges to it without a restart, and an instance started later (or after
 * `npm ci` emptied its app's node_modules, or with an empty folder) gets it from the database.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import type { ChannelSource } from '@bot-ai/api';
import { packedChannel, packedChannelOf } from '../../support/channel-package-tarballs.ts';
import { PADDED_DEPENDENCIES, paddedChannelSource, publishLibraries } from '../../support/dependency-libraries.ts';
import { createPluginRoot } from '../../support/temp-plugin-root.ts';
import { createTestApp, type TestApp } from '../../support/test-app.ts';
import { createTestDatabase, type TestDatabase } from '../../support/test-database.ts';
import { startTestRegistry, type TestRegistry } from '../../support/test-registry.ts';
import { webhookRequest } from '../builtin-pool/fixture-pool.ts';

let registry: TestRegistry;
let database: TestDatabase;
let appRoot: string;
const folders: string[] = [];
const apps: TestApp[] = [];

before(async () => {
  registry = await startTestRegistry();
  database = await createTestDatabase();
  appRoot = await createPluginRoot('bot-converge-app-');
  for (const version of ['1.0.0', '2.0.0']) {
    const { manifest, tarball } = await packedChannel('shared', version);
    registry.publish(manifest, tarball);
  }
  publishLibraries(registry);
  const padded = await packedChannelOf('padded', '1.0.0', paddedChannelSource('padded'), (manifest) => {
    manifest.dependencies = PADDED_DEPENDENCIES;
  });
  registry.publish(padded.manifest, padded.tarball);
});

after(async () => {
  for (const app of apps.reverse()) await app.close();
  await database?.close();
  await registry?.close();
  for (const folder of [appRoot, ...folders]) if (folder) await rm(folder, { recursive: true, force: true });
});

/** An instance on the shared database with a package folder of its own, listening for the others' changes. */
async function instance(): Promise<TestApp> {
  const storeDir = await mkdtemp(path.join(tmpdir(), 'bot-instance-store-'));
  folders.push(storeDir);
  const app = await createTestApp({ database, channels: { appRoot }, channelPackages: { storeDir, policy: 'registry', registry: { url: registry.url } } });
  apps.push(app);
  await app.services.channels.load();
  await app.services.channelSync.start();
  return app;
}

const runningVersion = (app: TestApp) => app.services.channels.registered().find((entry) => entry.name === 'shared')?.package?.version;

async function eventually(what: string, condition: () => boolean): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!condition()) {
    if (Date.now() > deadline) assert.fail(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

test('two instances on one database converge on install, upgrade, rollback and removal, with no restart', async () => {
  const [first, second] = [await instance(), await instance()];
  const installed = await first.request('POST', '/api/channel/packages', { as: 'admin', body: { spec: 'bot-channel-shared@1.0.0' } });
  assert.equal(installed.status, 200, installed.text);
  await eventually('the second instance runs 1.0.0', () => runningVersion(second) === '1.0.0');
  const upgraded = await second.request('POST', '/api/channel/packages', { as: 'admin', body: { spec: 'bot-channel-shared@2.0.0' } });
  assert.equal(upgraded.status, 200, upgraded.text);
  await eventually('the first instance runs 2.0.0', () => runningVersion(first) === '2.0.0');
  // The second fetched 2.0.0 from the registry; the first unpacked the copy kept in the database.
  assert.equal(registry.count('/bot-channel-shared/-/'), 2, 'each version was downloaded once');
  const rolledBack = await first.request('POST', '/api/channel/packages/bot-channel-shared/rollback', { as: 'admin' });
  assert.equal(rolledBack.status, 200, rolledBack.text);
  await eventually('the second instance runs 1.0.0 again', () => runningVersion(second) === '1.0.0');
  const removed = await first.request('DELETE', '/api/channel/packages/bot-channel-shared', { as: 'admin' });
  assert.equal(removed.status, 204, removed.text);
  await eventually('the second instance no longer runs it', () => runningVersion(second) === undefined);
});

test('an instance started later, with an empty package folder, gets the installed set from the database', async () => {
  const first = apps[0]!;
  const installed = await first.request('POST', '/api/channel/packages', { as: 'admin', body: { spec: 'bot-channel-shared@2.0.0' } });
  assert.equal(installed.status, 200, installed.text);
  const downloads = registry.count('/bot-channel-shared/-/');
  // As after `npm ci` of the host and a restart, or on a new machine: nothing on disk yet.
  const later = await instance();
  assert.equal(runningVersion(later), '2.0.0');
  assert.equal(registry.count('/bot-channel-shared/-/'), downloads, 'the registry was not asked again');
});

test("an instance started later gets a package's dependencies from the database, not the registry, and its channel uses them", async () => {
  const first = apps[0]!;
  const installed = await first.request('POST', '/api/channel/packages', { as: 'admin', body: { spec: 'bot-channel-padded@1.0.0' } });
  assert.equal(installed.status, 200, installed.text);
  const registryRequests = registry.requests.length;
  const later = await instance();
  assert.equal(registry.requests.length, registryRequests, `the registry was asked again: ${registry.requests.slice(registryRequests).map((request) => request.path).join(', ')}`);
  const running = later.services.channels.running('padded');
  assert.ok(running, 'the padded channel is not running on the later instance');
  const source: ChannelSource = { id: 'source-1', ref: 'ref-1', settings: {}, active: true };
  const result = await running.loaded.sandbox.receiveWebhook(webhookRequest({ id: 'e-1', text: 'hi' }), source);
  assert.equal(result.outcome, 'accepted');
  assert.equal(result.outcome === 'accepted' ? result.events[0]?.message?.data?.text : undefined, '****hi|hihi');
});
