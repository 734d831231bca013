import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test, type TestContext } from 'node:test';
import { fetchChannelPackage } from '../../../host/channels/packages/fetch-channel-package.ts';
import { packageJsonEntry, packFolder, tarballOf } from '../../support/build-tarball.ts';
import { createSigningKey, sha512Integrity, startTestRegistry, type PublishOptions, type TestRegistry, type TestRegistryOptions } from '../../support/test-registry.ts';
import { withEnvironment } from '../../support/with-environment.ts';

const PARROT = new URL('../../fixtures/channel-packages/bot-channel-parrot/', import.meta.url);
const parrotManifest = JSON.parse(await readFile(new URL('package.json', PARROT), 'utf8')) as Record<string, unknown>;
const parrotTarball = await packFolder(PARROT.pathname);

async function registryWith(t: TestContext, options: TestRegistryOptions = {}, publish: PublishOptions = {}): Promise<TestRegistry> {
  const registry = await startTestRegistry(options);
  t.after(() => registry.close());
  registry.publish(parrotManifest, parrotTarball, publish);
  return registry;
}

/** A minimal tarball of the parrot package at another version. */
function parrotAt(version: string): [Record<string, unknown>, Buffer] {
  const manifest = { ...parrotManifest, version };
  return [manifest, tarballOf([packageJsonEntry(manifest)])];
}

test('fetches a channel package with its manifest summary and the sha512 the registry advertises', async (t) => {
  const registry = await registryWith(t, {}, { publishedAt: '2026-11-01T10:00:00.000Z' });
  const fetched = await fetchChannelPackage('bot-channel-parrot@1.2.0', { url: registry.url });
  assert.equal(fetched.name, 'bot-channel-parrot');
  assert.equal(fetched.version, '1.2.0');
  assert.deepEqual(fetched.tarball, parrotTarball);
  assert.equal(fetched.integrity, sha512Integrity(parrotTarball));
  assert.equal(fetched.publishedAt, '2026-11-01T10:00:00.000Z');
  assert.deepEqual(fetched.manifest, {
    name: 'bot-channel-parrot',
    version: '1.2.0',
    description: 'Repeats every message back: a channel package fixture for install tests.',
    dependencies: { 'left-pad': '1.3.0' },
    bundleDependencies: [],
    peerDependencies: { '@bot-ai/api': '>=3 <4', '@bot-ai/types': '>=3 <4', '@nestjs/common': '^11.1.6', zod: '^4.3.6' },
    engines: { node: '>=26' },
    egress: ['api.parrot.example'],
    hasInstallScripts: false,
  });
});

test('asks the registry once for the packument, once for the keys and once for the tarball', async (t) => {
  const registry = await registryWith(t);
  await fetchChannelPackage('bot-channel-parrot', { url: registry.url });
  assert.deepEqual(registry.requests.map((request) => request.path).sort(), ['/-/npm/v1/keys', '/bot-channel-parrot', '/bot-channel-parrot/-/bot-channel-parrot-1.2.0.tgz']);
});

const picks: [string, string][] = [
  ['bot-channel-parrot', '2.0.0'],
  ['bot-channel-parrot@latest', '2.0.0'],
  ['bot-channel-parrot@^1', '1.2.0'],
  ['bot-channel-parrot@>=1.0.0 <1.2.0', '1.0.0'],
  ['bot-channel-parrot@1.0.0', '1.0.0'],
];
for (const [spec, version] of picks) {
  test(`"${spec}" picks version ${version} of 1.0.0, 1.2.0 and 2.0.0`, async (t) => {
    const registry = await registryWith(t);
    registry.publish(...parrotAt('1.0.0'));
    registry.publish(...parrotAt('2.0.0'));
    assert.equal((await fetchChannelPackage(spec, { url: registry.url })).version, version);
  });
}

test('a registry that publishes no keys gives trust "unsigned", and the note says why', async (t) => {
  const registry = await registryWith(t);
  const fetched = await fetchChannelPackage('bot-channel-parrot', { url: registry.url });
  assert.equal(fetched.trust, 'unsigned');
  assert.match(fetched.trustNote, /publishes no signing keys/);
});

test('a registry that answers for its keys with something else than a key list is refused, not taken as unsigned', async (t) => {
  const registry = await registryWith(t, { keysBody: '<html>sign in to the proxy</html>' });
  await assert.rejects(fetchChannelPackage('bot-channel-parrot', { url: registry.url }), { code: 'BOT_ERR_CHANNEL_PACKAGE_REGISTRY_UNREACHABLE' });
});

test("a version signed with the registry's published key is verified", async (t) => {
  const registry = await registryWith(t, { signingKey: createSigningKey() });
  const fetched = await fetchChannelPackage('bot-channel-parrot@^1', { url: registry.url });
  assert.equal(fetched.trust, 'verified');
});

test('a version without a signature on a registry that publishes keys is "unsigned", and the note says so', async (t) => {
  const registry = await registryWith(t, { signingKey: createSigningKey() }, { signature: 'none' });
  const fetched = await fetchChannelPackage('bot-channel-parrot@1.2.0', { url: registry.url });
  assert.equal(fetched.trust, 'unsigned');
  assert.match(fetched.trustNote, /carries no registry signature/);
});

const badSignatures: [string, () => TestRegistryOptions, () => PublishOptions][] = [
  ["made with another key under the registry's key id", () => ({ signingKey: createSigningKey() }), () => ({ signature: { forgedWith: createSigningKey() } })],
  ['by a key the registry does not publish', () => ({ signingKey: createSigningKey() }), () => {
    const other = createSigningKey();
    return { signature: { keyid: other.keyid, signedWith: other } };
  }],
  ['over another tarball than the one advertised', () => ({ signingKey: createSigningKey() }), () => ({ signedIntegrity: sha512Integrity(Buffer.from('another tarball')) })],
  ['by a key that expired before the version was published', () => ({ signingKey: createSigningKey('2026-01-01T00:00:00.000Z') }), () => ({ publishedAt: '2026-06-01T00:00:00.000Z' })],
];
for (const [what, options, publish] of badSignatures) {
  test(`a registry signature ${what} is refused with BOT_ERR_CHANNEL_PACKAGE_SIGNATURE_INVALID`, async (t) => {
    const registry = await registryWith(t, options(), publish());
    await assert.rejects(fetchChannelPackage('bot-channel-parrot@1.2.0', { url: registry.url }), { code: 'BOT_ERR_CHANNEL_PACKAGE_SIGNATURE_INVALID' });
  });
}

test('a key that expires after the publish time still verifies', async (t) => {
  const registry = await registryWith(t, { signingKey: createSigningKey('2026-06-01T00:00:00.000Z') }, { publishedAt: '2026-01-01T00:00:00.000Z' });
  assert.equal((await fetchChannelPackage('bot-channel-parrot', { url: registry.url })).trust, 'verified');
});

test("a registry that advertises another sha512 than the tarball's is refused", async (t) => {
  const registry = await registryWith(t, {}, { integrity: sha512Integrity(Buffer.from('what the registry claims')) });
  await assert.rejects(fetchChannelPackage('bot-channel-parrot', { url: registry.url }), { code: 'BOT_ERR_CHANNEL_PACKAGE_INTEGRITY_MISMATCH' });
});

test('a registry that gives only a sha1 integrity is refused', async (t) => {
  const registry = await registryWith(t, {}, { integrity: 'sha1-2jmj7l5rSw0yVb/vlWAYkK/YBwk=' });
  await assert.rejects(fetchChannelPackage('bot-channel-parrot', { url: registry.url }), { code: 'BOT_ERR_CHANNEL_PACKAGE_INTEGRITY_MISMATCH' });
  assert.equal(registry.count('/bot-channel-parrot/-/'), 0);
});

test('a pinned integrity other than the registry\'s refuses the package before its tarball is downloaded', async (t) => {
  const registry = await registryWith(t);
  const pinnedIntegrity = sha512Integrity(Buffer.from('the release the operator reviewed'));
  await assert.rejects(fetchChannelPackage('bot-channel-parrot', { url: registry.url }, { pinnedIntegrity }), { code: 'BOT_ERR_CHANNEL_PACKAGE_INTEGRITY_MISMATCH' });
  assert.equal(registry.count('/bot-channel-parrot/-/'), 0);
});

test("a pinned integrity equal to the tarball's is accepted", async (t) => {
  const registry = await registryWith(t);
  const fetched = await fetchChannelPackage('bot-channel-parrot', { url: registry.url }, { pinnedIntegrity: sha512Integrity(parrotTarball) });
  assert.equal(fetched.integrity, sha512Integrity(parrotTarball));
});

const refusedSpecs: [string, string][] = [
  ['left-pad', 'BOT_ERR_CHANNEL_PACKAGE_NAME_INVALID'],
  ['left-pad@1.3.0', 'BOT_ERR_CHANNEL_PACKAGE_NAME_INVALID'],
  ['@acme/bot-channel-parrot@1.2.0', 'BOT_ERR_CHANNEL_PACKAGE_NAME_INVALID'],
  ['Bot-Channel-Parrot', 'BOT_ERR_CHANNEL_PACKAGE_NAME_INVALID'],
  ['bot-channel-parrot@github:acme/parrot', 'BOT_ERR_CHANNEL_PACKAGE_SPEC_INVALID'],
  ['git+https://example.com/acme/parrot.git', 'BOT_ERR_CHANNEL_PACKAGE_SPEC_INVALID'],
  ['bot-channel-parrot@https://example.com/parrot.tgz', 'BOT_ERR_CHANNEL_PACKAGE_SPEC_INVALID'],
  ['https://example.com/bot-channel-parrot.tgz', 'BOT_ERR_CHANNEL_PACKAGE_SPEC_INVALID'],
  ['bot-channel-parrot@file:../parrot', 'BOT_ERR_CHANNEL_PACKAGE_SPEC_INVALID'],
  ['./bot-channel-parrot-1.2.0.tgz', 'BOT_ERR_CHANNEL_PACKAGE_SPEC_INVALID'],
  ['bot-channel-parrot@npm:left-pad@1.3.0', 'BOT_ERR_CHANNEL_PACKAGE_SPEC_INVALID'],
  ['bot-channel-parrot@beta', 'BOT_ERR_CHANNEL_PACKAGE_SPEC_INVALID'],
];
for (const [spec, code] of refusedSpecs) {
  test(`"${spec}" is refused with ${code} before the registry is asked`, async (t) => {
    const registry = await registryWith(t);
    await assert.rejects(fetchChannelPackage(spec, { url: registry.url }), { code });
    assert.equal(registry.requests.length, 0);
  });
}

test('a package or version the registry does not have is BOT_ERR_CHANNEL_PACKAGE_NOT_FOUND', async (t) => {
  const registry = await registryWith(t);
  await assert.rejects(fetchChannelPackage('bot-channel-nobody', { url: registry.url }), { code: 'BOT_ERR_CHANNEL_PACKAGE_NOT_FOUND' });
  await assert.rejects(fetchChannelPackage('bot-channel-parrot@^9', { url: registry.url }), { code: 'BOT_ERR_CHANNEL_PACKAGE_NOT_FOUND' });
});

test('the token is sent as a bearer token on every request, and the registry refuses a fetch without it', async (t) => {
  const token = 'npm_s3cret-registry-token';
  const registry = await registryWith(t, { token, signingKey: createSigningKey() });
  const fetched = await fetchChannelPackage('bot-channel-parrot', { url: registry.url, token });
  assert.equal(fetched.trust, 'verified');
  assert.deepEqual(new Set(registry.requests.map((request) => request.authorization)), new Set([`Bearer ${token}`]));
  await assert.rejects(fetchChannelPackage('bot-channel-parrot', { url: registry.url }), { code: 'BOT_ERR_CHANNEL_PACKAGE_REGISTRY_REFUSED' });
});

test('a refused token is never repeated in the error', async (t) => {
  const registry = await registryWith(t, { token: 'the-right-token' });
  await assert.rejects(fetchChannelPackage('bot-channel-parrot', { url: registry.url, token: 'npm_wrong-token-4f2a' }), (error: Error & { code?: string; details?: unknown }) => {
    assert.equal(error.code, 'BOT_ERR_CHANNEL_PACKAGE_REGISTRY_REFUSED');
    // The cause is logged with the error: it must not hold the token either.
    assert.doesNotMatch(`${error.message} ${JSON.stringify(error.details)} ${String(error.cause)}`, /wrong-token/);
    assert.match(error.message, /bot-channel-parrot/);
    return true;
  });
});

test('npm_config_* variables and .npmrc files have no effect: only the given registry and token are used', async (t) => {
  const registry = await registryWith(t);
  const decoy = await startTestRegistry();
  t.after(() => decoy.close());
  decoy.publish(...parrotAt('9.9.9'));
  const home = await mkdtemp(path.join(tmpdir(), 'npmrc-home-'));
  t.after(() => rm(home, { recursive: true, force: true }));
  const npmrc = `registry=${decoy.url}\n//127.0.0.1:${new URL(decoy.url).port}/:_authToken=ambient-token\n//${new URL(registry.url).host}/:_authToken=ambient-token\n`;
  await writeFile(path.join(home, '.npmrc'), npmrc);
  withEnvironment(t, {
    HOME: home,
    npm_config_registry: decoy.url,
    NPM_CONFIG_REGISTRY: decoy.url,
    npm_config_userconfig: path.join(home, '.npmrc'),
    npm_config__authToken: 'ambient-token',
    npm_config_cache: path.join(home, 'cache'),
  });
  const fetched = await fetchChannelPackage('bot-channel-parrot', { url: registry.url });
  assert.equal(fetched.version, '1.2.0');
  assert.equal(decoy.requests.length, 0);
  assert.ok(registry.requests.every((request) => request.authorization === undefined));
  assert.deepEqual(await readdir(home), ['.npmrc']);
});

test('a tarball larger than maxTarballBytes is refused with BOT_ERR_CHANNEL_PACKAGE_TOO_LARGE', async (t) => {
  const registry = await registryWith(t);
  await assert.rejects(fetchChannelPackage('bot-channel-parrot', { url: registry.url }, { maxTarballBytes: 200 }), { code: 'BOT_ERR_CHANNEL_PACKAGE_TOO_LARGE' });
});

test('a tarball whose package.json is another version than the registry says is refused', async (t) => {
  const registry = await registryWith(t);
  registry.publish({ ...parrotManifest, version: '1.2.1' }, parrotTarball);
  await assert.rejects(fetchChannelPackage('bot-channel-parrot@1.2.1', { url: registry.url }), { code: 'BOT_ERR_CHANNEL_PACKAGE_MANIFEST_INVALID' });
});

test('a tarball holding a symbolic link is refused when fetched, before anything unpacks it', async (t) => {
  const registry = await registryWith(t);
  const manifest = { ...parrotManifest, version: '1.3.0' };
  registry.publish(manifest, tarballOf([packageJsonEntry(manifest), { path: 'package/secrets', type: 'SymbolicLink', linkpath: '/etc/shadow' }]));
  await assert.rejects(fetchChannelPackage('bot-channel-parrot@1.3.0', { url: registry.url }), { code: 'BOT_ERR_CHANNEL_PACKAGE_ENTRY_REFUSED' });
});

test('a registry that does not answer within timeoutMs is BOT_ERR_CHANNEL_PACKAGE_REGISTRY_UNREACHABLE', async (t) => {
  const registry = await registryWith(t, { stallTarballs: true });
  const started = Date.now();
  await assert.rejects(fetchChannelPackage('bot-channel-parrot', { url: registry.url, timeoutMs: 500 }), { code: 'BOT_ERR_CHANNEL_PACKAGE_REGISTRY_UNREACHABLE', message: /within 500 ms/ });
  assert.ok(Date.now() - started < 5_000);
});

test('a registry nobody listens on is BOT_ERR_CHANNEL_PACKAGE_REGISTRY_UNREACHABLE', async () => {
  const registry = await startTestRegistry();
  await registry.close();
  await assert.rejects(fetchChannelPackage('bot-channel-parrot', { url: registry.url }), { code: 'BOT_ERR_CHANNEL_PACKAGE_REGISTRY_UNREACHABLE' });
});

test('a registry URL with credentials in it is refused', async () => {
  await assert.rejects(fetchChannelPackage('bot-channel-parrot', { url: 'https://user:pass@registry.example/' }), { code: 'BOT_ERR_CHANNEL_PACKAGE_REGISTRY_UNREACHABLE' });
});

/** Sets environment variables for the rest of the test. */
