/**
 * A host that installs channel packages, for the install tests: the real app on a database of
 * its own, an empty app root, a package folder, and a real registry on a free port.
 */
import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestContext } from 'node:test';
import type { ChannelSource } from '@bot-ai/api';
import type { InstallPolicy } from '../../host/channels/packages/channel-package-service.ts';
import type { InstallRules } from '../../host/channels/packages/install-policy.ts';
import { webhookRequest } from '../channels/builtin-pool/fixture-pool.ts';
import { createPluginRoot } from './temp-plugin-root.ts';
import { createTestApp, type TestApp } from './test-app.ts';
import { startTestRegistry, type TestRegistry, type TestRegistryOptions } from './test-registry.ts';

const SOURCE: ChannelSource = { id: 'source-1', ref: 'ref-1', settings: {}, active: true };

export interface PackageHost {
  registry: TestRegistry;
  app: TestApp;
  /** BOT_CHANNEL_STORE_DIR of the app. */
  storeDir: string;
  /** BOT_APP_ROOT of the app: an empty one. */
  appRoot: string;
  close(): Promise<void>;
}

/**
 * Started with its channels loaded; `policy` is BOT_CHANNEL_INSTALL (default `registry`), `rules`
 * the operator's install rules (default none), `registry` what the test registry does.
 */
export async function startPackageHost(policy: InstallPolicy = 'registry', options: { rules?: InstallRules; registry?: TestRegistryOptions } = {}): Promise<PackageHost> {
  const registry = await startTestRegistry(options.registry);
  const storeDir = await mkdtemp(path.join(tmpdir(), 'bot-channel-store-'));
  const appRoot = await createPluginRoot('bot-package-app-');
  const rules = options.rules ? { rules: options.rules } : {};
  const app = await createTestApp({ channels: { appRoot }, channelPackages: { storeDir, policy, ...rules, registry: { url: registry.url } } });
  await app.services.channels.load();
  return {
    registry,
    app,
    storeDir,
    appRoot,
    async close() {
      await app.close();
      await registry.close();
      await rm(storeDir, { recursive: true, force: true });
      await rm(appRoot, { recursive: true, force: true });
    },
  };
}

/** What the running channel `name` decodes `text` into (the generated packages prefix their version). */
export async function decodedText(app: TestApp, name: string, text: string): Promise<string> {
  const running = app.services.channels.running(name);
  assert.ok(running, `channel ${name} is not running`);
  const result = await running.loaded.sandbox.receiveWebhook(webhookRequest({ id: `e-${text}`, text }), SOURCE);
  assert.equal(result.outcome, 'accepted');
  return String((result.outcome === 'accepted' ? result.events[0]?.message?.data : undefined)?.text);
}

/** `name` is neither in the installed set nor unpacked in the package folder. */
export async function assertNotInstalled(t: TestContext, host: PackageHost, name: string): Promise<void> {
  const listed = await host.app.request('GET', '/api/channel/packages', { as: 'viewer' });
  assert.ok(!listed.body.items.some((entry: { name: string }) => entry.name === name), `${name} is listed`);
  const left = await readdir(path.join(host.storeDir, name)).catch(() => [] as string[]);
  assert.deepEqual(left.filter((entry) => !entry.startsWith('.')), [], `${name} left files in the store`);
  t.diagnostic(`${name}: nothing installed`);
}
