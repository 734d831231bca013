/**
 * The dependencies of a channel package come from the registry and token the install was given,
 * whatever npm's own configuration on the machine says, and are packed into one bundle the
 * host's extractor unpacks (the form every instance installs them from).
 */
import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test, type TestContext } from 'node:test';
import { fetchChannelDependencies } from '../../../host/channels/packages/fetch-channel-dependencies.ts';
import { readChannelTarball } from '../../../host/channels/packages/read-channel-tarball.ts';
import { libraryTarball } from '../../support/build-tarball.ts';
import { publishLibraries } from '../../support/dependency-libraries.ts';
import { sha512Integrity, startTestRegistry, type TestRegistry } from '../../support/test-registry.ts';
import { withEnvironment } from '../../support/with-environment.ts';

const HOST_PEERS = ['@bot-ai/api', '@bot-ai/types', 'zod', '@nestjs/common'];

async function registryWith(t: TestContext, options: Parameters<typeof startTestRegistry>[0] = {}): Promise<TestRegistry> {
  const registry = await startTestRegistry(options);
  t.after(() => registry.close());
  publishLibraries(registry);
  return registry;
}

test('the bundle holds each dependency at its place under package/, with no link, and its integrity', async (t) => {
  const registry = await registryWith(t);
  const bundle = await fetchChannelDependencies({ 'tiny-pad': '^1.0.0', 'tiny-repeat': '2.0.0', zod: '^3' }, 'bot-channel-x@1.0.0', { url: registry.url }, { hostPeers: HOST_PEERS });
  assert.ok(bundle);
  assert.equal(bundle.integrity, sha512Integrity(bundle.tarball));
  assert.deepEqual(bundle.packages.map((entry) => `${entry.path}@${entry.version}`).sort(), ['tiny-pad/node_modules/tiny-repeat@1.0.0', 'tiny-pad@1.0.0', 'tiny-repeat@2.0.0']);
  const files = (await readChannelTarball(bundle.tarball)).filter((entry) => entry.kind === 'file').map((entry) => entry.path);
  assert.deepEqual(files.sort(), ['tiny-pad/index.js', 'tiny-pad/node_modules/tiny-repeat/index.js', 'tiny-pad/node_modules/tiny-repeat/package.json', 'tiny-pad/package.json', 'tiny-repeat/index.js', 'tiny-repeat/package.json']);
});

test('nothing to fetch (only peers and bundled dependencies) makes no bundle and asks the registry nothing', async (t) => {
  const registry = await registryWith(t);
  const bundle = await fetchChannelDependencies({ zod: '^3', 'tiny-pad': '1.0.0' }, 'bot-channel-x@1.0.0', { url: registry.url }, { hostPeers: HOST_PEERS, bundled: ['tiny-pad'] });
  assert.equal(bundle, undefined);
  assert.equal(registry.requests.length, 0);
});

test('a bundle larger than maxBundleBytes is refused with BOT_ERR_CHANNEL_PACKAGE_TOO_LARGE', async (t) => {
  const registry = await registryWith(t);
  await assert.rejects(fetchChannelDependencies({ 'tiny-pad': '^1.0.0' }, 'bot-channel-x@1.0.0', { url: registry.url }, { hostPeers: HOST_PEERS, maxBundleBytes: 100 }), { code: 'BOT_ERR_CHANNEL_PACKAGE_TOO_LARGE' });
});

test('npm_config_* variables and .npmrc files have no effect on dependencies: only the given registry and token are used', async (t) => {
  const registry = await registryWith(t, { token: 'the-token' });
  const decoy = await startTestRegistry();
  t.after(() => decoy.close());
  const decoyPad = { name: 'tiny-pad', version: '1.9.9', main: 'index.js' };
  decoy.publish(decoyPad, libraryTarball(decoyPad, { 'index.js': 'module.exports = "decoy";\n' }));
  const home = await mkdtemp(path.join(tmpdir(), 'npmrc-home-'));
  t.after(() => rm(home, { recursive: true, force: true }));
  await writeFile(path.join(home, '.npmrc'), `registry=${decoy.url}\n//${new URL(registry.url).host}/:_authToken=ambient-token\n`);
  withEnvironment(t, {
    HOME: home,
    npm_config_registry: decoy.url,
    NPM_CONFIG_REGISTRY: decoy.url,
    npm_config_userconfig: path.join(home, '.npmrc'),
    npm_config__authToken: 'ambient-token',
    npm_config_cache: path.join(home, 'cache'),
    npm_config_ignore_scripts: 'false',
    npm_config_legacy_peer_deps: 'false',
  });
  const bundle = await fetchChannelDependencies({ 'tiny-pad': '^1.0.0' }, 'bot-channel-x@1.0.0', { url: registry.url, token: 'the-token' }, { hostPeers: HOST_PEERS });
  assert.deepEqual(bundle?.packages.map((entry) => `${entry.name}@${entry.version}`).sort(), ['tiny-pad@1.0.0', 'tiny-repeat@1.0.0']);
  assert.equal(decoy.requests.length, 0);
  assert.ok(registry.requests.length > 0 && registry.requests.every((request) => request.authorization === 'Bearer the-token'));
  assert.deepEqual(await readdir(home), ['.npmrc']);
});
