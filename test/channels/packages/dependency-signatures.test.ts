/**
 * A dependency is code the runner loads like the package itself, so its registry signature is
 * checked as the package's is: one that does not verify refuses the install before anything is
 * downloaded. With BOT_CHANNEL_REQUIRE_SIGNED the host installs only what the registry signs:
 * the package, every dependency, and never an upload.
 */
import assert from 'node:assert/strict';
import { readdir } from 'node:fs/promises';
import { test, type TestContext } from 'node:test';
import { fetchChannelDependencies } from '../../../host/channels/packages/fetch-channel-dependencies.ts';
import type { InstallPolicy } from '../../../host/channels/packages/channel-package-service.ts';
import { OPEN_RULES, type InstallRules } from '../../../host/channels/packages/install-policy.ts';
import { libraryTarball } from '../../support/build-tarball.ts';
import { packedChannelOf } from '../../support/channel-package-tarballs.ts';
import { PADDED_DEPENDENCIES, paddedChannelSource, publishLibraries } from '../../support/dependency-libraries.ts';
import { startPackageHost, type PackageHost } from '../../support/package-host.ts';
import { createSigningKey, sha512Integrity, startTestRegistry, type PublishOptions, type TestRegistry, type TestRegistryOptions } from '../../support/test-registry.ts';

const HOST_PEERS = ['@bot-ai/api', '@bot-ai/types', 'zod', '@nestjs/common'];
const registryKey = createSigningKey();
const otherKey = createSigningKey();

async function signingRegistry(t: TestContext): Promise<TestRegistry> {
  const registry = await startTestRegistry({ signingKey: registryKey });
  t.after(() => registry.close());
  publishLibraries(registry);
  return registry;
}

function publishLibrary(registry: TestRegistry, name: string, options: PublishOptions): void {
  const manifest = { name, version: '1.0.0', main: 'index.js' };
  registry.publish(manifest, libraryTarball(manifest, { 'index.js': 'module.exports = 1;\n' }), options);
}

const dependencyDownloads = (registry: TestRegistry) => registry.requests.filter((request) => request.path.endsWith('.tgz')).length;

for (const [what, options] of [
  ['made with another key under the registry key id', { signature: { forgedWith: otherKey } }],
  ['made with a key the registry does not publish', { signature: { keyid: otherKey.keyid, signedWith: otherKey } }],
  ['over another integrity than the one advertised', { signedIntegrity: `sha512-${Buffer.alloc(64).toString('base64')}` }],
] as const) {
  test(`a dependency whose registry signature is ${what} refuses the install, naming it, before any download`, async (t) => {
    const registry = await signingRegistry(t);
    publishLibrary(registry, 'tiny-swapped', options);
    const swappedDeep = { name: 'tiny-outer', version: '1.0.0', main: 'index.js', dependencies: { 'tiny-swapped': '1.0.0' } };
    registry.publish(swappedDeep, libraryTarball(swappedDeep));
    const trees: Record<string, string>[] = [{ 'tiny-swapped': '1.0.0' }, { 'tiny-pad': '^1.0.0', 'tiny-outer': '1.0.0' }];
    for (const wanted of trees) {
      await assert.rejects(fetchChannelDependencies(wanted, 'bot-channel-x@1.0.0', { url: registry.url }, { hostPeers: HOST_PEERS }), (error: Error & { code?: string; details?: unknown }) => {
        assert.equal(error.code, 'BOT_ERR_CHANNEL_PACKAGE_SIGNATURE_INVALID');
        assert.match(error.message, /tiny-swapped@1\.0\.0/);
        assert.deepEqual(error.details, { dependency: 'tiny-swapped' });
        return true;
      });
    }
    assert.equal(dependencyDownloads(registry), 0);
  });
}

test('signed and unsigned dependencies install by default, the keys asked once per install', async (t) => {
  const registry = await signingRegistry(t);
  publishLibrary(registry, 'tiny-unsigned', { signature: 'none' });
  const bundle = await fetchChannelDependencies({ ...PADDED_DEPENDENCIES, 'tiny-unsigned': '1.0.0' }, 'bot-channel-x@1.0.0', { url: registry.url }, { hostPeers: HOST_PEERS });
  assert.deepEqual(bundle?.packages.map((entry) => entry.name).sort(), ['tiny-pad', 'tiny-repeat', 'tiny-repeat', 'tiny-unsigned']);
  assert.equal(registry.count('/-/npm/v1/keys'), 1);
});

test('with requireSigned, an unsigned dependency anywhere in the tree is refused by policy, naming it, before any download', async (t) => {
  const registry = await signingRegistry(t);
  publishLibrary(registry, 'tiny-unsigned', { signature: 'none' });
  const outer = { name: 'tiny-outer', version: '1.0.0', main: 'index.js', dependencies: { 'tiny-unsigned': '1.0.0' } };
  registry.publish(outer, libraryTarball(outer));
  await assert.rejects(
    fetchChannelDependencies({ 'tiny-pad': '^1.0.0', 'tiny-outer': '1.0.0' }, 'bot-channel-x@1.0.0', { url: registry.url }, { hostPeers: HOST_PEERS, requireSigned: true }),
    (error: Error & { code?: string; details?: unknown }) => {
      assert.equal(error.code, 'BOT_ERR_CHANNEL_PACKAGE_POLICY');
      assert.match(error.message, /tiny-unsigned@1\.0\.0.*BOT_CHANNEL_REQUIRE_SIGNED/);
      assert.deepEqual(error.details, { dependency: 'tiny-unsigned' });
      return true;
    },
  );
  assert.equal(dependencyDownloads(registry), 0);
  const signed = await fetchChannelDependencies(PADDED_DEPENDENCIES, 'bot-channel-x@1.0.0', { url: registry.url }, { hostPeers: HOST_PEERS, requireSigned: true });
  assert.equal(signed?.packages.length, 3);
});

test('a registry that publishes no keys leaves every dependency unsigned: refused with requireSigned', async (t) => {
  const registry = await startTestRegistry();
  t.after(() => registry.close());
  publishLibraries(registry);
  await assert.rejects(fetchChannelDependencies(PADDED_DEPENDENCIES, 'bot-channel-x@1.0.0', { url: registry.url }, { hostPeers: HOST_PEERS, requireSigned: true }), { code: 'BOT_ERR_CHANNEL_PACKAGE_POLICY' });
});

/** A host installing from a registry of its own that signs (the small libraries published), closed after the test. */
async function packageHost(t: TestContext, options: { policy?: InstallPolicy; rules?: InstallRules; registry?: TestRegistryOptions } = {}): Promise<PackageHost> {
  const host = await startPackageHost(options.policy, { registry: { signingKey: registryKey, ...options.registry }, ...(options.rules ? { rules: options.rules } : {}) });
  t.after(() => host.close());
  publishLibraries(host.registry);
  return host;
}

/** The same, with BOT_CHANNEL_REQUIRE_SIGNED on. */
const signedOnlyHost = (t: TestContext, policy: InstallPolicy = 'registry') => packageHost(t, { policy, rules: { ...OPEN_RULES, requireSigned: true } });

async function publishChannel(registry: TestRegistry, name: string, dependencies: Record<string, string>, options: PublishOptions = {}): Promise<void> {
  const { manifest, tarball } = await packedChannelOf(name, '1.0.0', paddedChannelSource(name), (edited) => {
    edited.dependencies = dependencies;
  });
  registry.publish(manifest, tarball, options);
}

test('with BOT_CHANNEL_REQUIRE_SIGNED the host installs a signed package with signed dependencies, and refuses the rest, audited, with nothing unpacked', async (t) => {
  const { registry, app, storeDir } = await signedOnlyHost(t);
  publishLibrary(registry, 'tiny-unsigned', { signature: 'none' });
  await publishChannel(registry, 'signed', PADDED_DEPENDENCIES);
  await publishChannel(registry, 'bare', PADDED_DEPENDENCIES, { signature: 'none' });
  await publishChannel(registry, 'loose', { ...PADDED_DEPENDENCIES, 'tiny-unsigned': '1.0.0' });
  const install = (spec: string) => app.request('POST', '/api/channel/packages', { as: 'admin', body: { spec } });

  for (const [name, reason] of [['bare', /bot-channel-bare@1\.0\.0 carries no registry signature/], ['loose', /dependency tiny-unsigned@1\.0\.0 carries no registry signature/]] as const) {
    const refused = await install(`bot-channel-${name}@1.0.0`);
    assert.equal(refused.status, 403, refused.text);
    assert.equal(refused.body.error.code, 'BOT_ERR_CHANNEL_PACKAGE_POLICY');
    assert.match(refused.body.error.message, reason);
  }
  const audit = await app.request('GET', '/api/channel/packages/audit', { as: 'viewer' });
  assert.deepEqual(audit.body.items.map((entry: { outcome: string }) => entry.outcome), ['BOT_ERR_CHANNEL_PACKAGE_POLICY', 'BOT_ERR_CHANNEL_PACKAGE_POLICY']);
  assert.deepEqual(await readdir(storeDir), [], 'nothing was unpacked');

  const installed = await install('bot-channel-signed@1.0.0');
  assert.equal(installed.status, 200, installed.text);
  assert.equal(installed.body.package.trust, 'verified');
});

test("an install judges the dependencies by the keys it judged the package by: the registry is asked once", async (t) => {
  // A registry that would call every dependency unsigned if it were asked a second time.
  const { registry, app } = await packageHost(t, { registry: { keysOnce: true } });
  publishLibrary(registry, 'tiny-swapped', { signature: { forgedWith: otherKey } });
  await publishChannel(registry, 'swapped', { 'tiny-swapped': '1.0.0' });
  const refused = await app.request('POST', '/api/channel/packages', { as: 'admin', body: { spec: 'bot-channel-swapped@1.0.0' } });
  assert.equal(refused.status, 422, refused.text);
  assert.equal(refused.body.error.code, 'BOT_ERR_CHANNEL_PACKAGE_SIGNATURE_INVALID');
  assert.match(refused.body.error.message, /tiny-swapped@1\.0\.0/);
  assert.equal(registry.count('/-/npm/v1/keys'), 1);
});

test('with BOT_CHANNEL_REQUIRE_SIGNED an unsigned registry version is refused before its tarball is downloaded, in the preview too', async (t) => {
  const { registry, app } = await signedOnlyHost(t);
  await publishChannel(registry, 'bare', PADDED_DEPENDENCIES, { signature: 'none' });
  for (const route of ['/api/channel/packages/preview', '/api/channel/packages']) {
    const refused = await app.request('POST', route, { as: 'admin', body: { spec: 'bot-channel-bare@1.0.0' } });
    assert.equal(refused.status, 403, `${route}: ${refused.text}`);
    assert.equal(refused.body.error.code, 'BOT_ERR_CHANNEL_PACKAGE_POLICY');
  }
  assert.equal(registry.count('/bot-channel-bare/-/'), 0, 'no tarball downloaded');
});

test('with BOT_CHANNEL_REQUIRE_SIGNED an uploaded tarball is refused, pinned or not: no registry signs it', async (t) => {
  const { app } = await signedOnlyHost(t, 'any');
  const { tarball } = await packedChannelOf('uploaded', '1.0.0', paddedChannelSource('uploaded'));
  for (const query of ['', `?integrity=${encodeURIComponent(sha512Integrity(tarball))}`]) {
    const refused = await app.request('POST', `/api/channel/packages/upload${query}`, { as: 'admin', raw: { bytes: tarball, type: 'application/gzip' } });
    assert.equal(refused.status, 403, refused.text);
    assert.equal(refused.body.error.code, 'BOT_ERR_CHANNEL_PACKAGE_POLICY');
    assert.match(refused.body.error.message, /upload, which no registry signs/);
  }
});
