/**
 * A channel package's dependencies are installed by the host from the registry alone: laid out
 * as npm lays out `node_modules` (a second version nested under the package needing it),
 * resolving in the channel's sandbox, with no script run and no `bin` linked; a dependency from
 * anywhere else than the registry, or one the registry gives no matching integrity for, refuses
 * the whole install.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { lstat, mkdtemp, readdir, readFile, readlink, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { libraryTarball, packFolder } from '../../support/build-tarball.ts';
import { packedChannelOf } from '../../support/channel-package-tarballs.ts';
import { PADDED_DEPENDENCIES, paddedChannelSource, publishLibraries } from '../../support/dependency-libraries.ts';
import type { TestApp } from '../../support/test-app.ts';
import { assertNotInstalled, decodedText, startPackageHost, type PackageHost } from '../../support/package-host.ts';
import type { TestRegistry } from '../../support/test-registry.ts';
import { upgradableChannelSource } from '../hot-enable/upgradable-plugin-root.ts';

const SCRIPTED_DEPENDENCY = new URL('../../fixtures/channel-packages/scripted-dependency/', import.meta.url).pathname;
const HOST_PEERS = ['@bot-ai/api', '@bot-ai/types', 'zod', '@nestjs/common'];

let host: PackageHost;
let registry: TestRegistry;
let app: TestApp;
let storeDir: string;

before(async () => {
  host = await startPackageHost('registry');
  ({ registry, app, storeDir } = host);
  publishLibraries(registry);
  const wrapper = { name: 'tiny-wrapper', version: '1.0.0', dependencies: { 'tiny-git': 'git+https://example.invalid/tiny-git.git' } };
  registry.publish(wrapper, libraryTarball(wrapper));
  const zodUser = { name: 'tiny-zod-user', version: '1.0.0', dependencies: { zod: '^3' } };
  registry.publish(zodUser, libraryTarball(zodUser));
});

/** Tarballs of dependencies the registry served so far. */
const dependencyDownloads = () => registry.requests.filter((request) => request.path.endsWith('.tgz') && !request.path.startsWith('/bot-channel-')).length;

after(() => host?.close());

async function publishChannel(name: string, dependencies: Record<string, string>, source = paddedChannelSource(name)): Promise<void> {
  const { manifest, tarball } = await packedChannelOf(name, '1.0.0', source, (edited) => {
    edited.dependencies = dependencies;
  });
  registry.publish(manifest, tarball);
}

const install = (spec: string) => app.request('POST', '/api/channel/packages', { as: 'admin', body: { spec } });

const versionFolder = (name: string) => path.join(storeDir, `bot-channel-${name}`, 'current');

test('a dependency is installed from the registry, nested where npm nests it, and resolves in the sandbox', async () => {
  await publishChannel('padded', { ...PADDED_DEPENDENCIES, zod: '*' });
  const installed = await install('bot-channel-padded@1.0.0');
  assert.equal(installed.status, 200, installed.text);
  assert.equal(installed.body.channel.status, 'registered', installed.text);
  assert.equal(await decodedText(app, 'padded', 'hi'), '****hi|hihi');
  const modules = path.join(versionFolder('padded'), 'node_modules');
  const versionOf = async (folder: string) => (JSON.parse(await readFile(path.join(modules, folder, 'package.json'), 'utf8')) as { version: string }).version;
  assert.equal(await versionOf('tiny-repeat'), '2.0.0');
  assert.equal(await versionOf('tiny-pad/node_modules/tiny-repeat'), '1.0.0');
  // zod is the host's: linked, never fetched.
  assert.equal(registry.count('/zod'), 0);
  assert.deepEqual(await linksIn(modules), HOST_PEERS.filter((peer) => existsSync(path.join(modules, peer))).sort());
});

test('a dependency with install scripts, a binding.gyp and a bin: none of them runs, and no bin is linked', async (t) => {
  const markerDir = await mkdtemp(path.join(tmpdir(), 'bot-dependency-marker-'));
  t.after(() => rm(markerDir, { recursive: true, force: true }));
  const marker = path.join(markerDir, 'ran');
  process.env.CHANNEL_SCRIPT_MARKER = marker;
  t.after(() => delete process.env.CHANNEL_SCRIPT_MARKER);
  const manifest = JSON.parse(await readFile(path.join(SCRIPTED_DEPENDENCY, 'package.json'), 'utf8')) as Record<string, unknown>;
  registry.publish(manifest, await packFolder(SCRIPTED_DEPENDENCY));
  await publishChannel('needs-scripted', { 'scripted-dependency': '1.0.0' }, upgradableChannelSource('needs-scripted', '1.0.0'));
  const installed = await install('bot-channel-needs-scripted@1.0.0');
  assert.equal(installed.status, 200, installed.text);
  const modules = path.join(versionFolder('needs-scripted'), 'node_modules');
  assert.ok(existsSync(path.join(modules, 'scripted-dependency', 'binding.gyp')), 'the dependency is installed');
  assert.equal(existsSync(path.join(modules, '.bin')), false, 'a bin was linked');
  assert.equal((await lstat(path.join(modules, 'scripted-dependency', 'cli.js'))).mode & 0o111, 0, 'the bin is executable');
  assert.equal(existsSync(marker), false, `code of the dependency ran on the host: ${existsSync(marker) ? await readFile(marker, 'utf8') : ''}`);
});

for (const [what, dependencies, named] of [
  ['a git dependency', { 'tiny-pad': 'github:someone/tiny-pad' }, 'tiny-pad'],
  ['a tarball URL', { 'tiny-pad': 'https://example.invalid/tiny-pad-1.0.0.tgz' }, 'tiny-pad'],
  ['a file dependency', { 'tiny-pad': 'file:../tiny-pad' }, 'tiny-pad'],
  ['a link dependency', { 'tiny-pad': 'link:../tiny-pad' }, 'tiny-pad'],
  ['an alias', { 'tiny-pad': 'npm:tiny-repeat@1.0.0' }, 'tiny-pad'],
  ['a dependency named like a channel', { 'bot-channel-other': '1.0.0' }, 'bot-channel-other'],
  ['a git dependency of a dependency', { 'tiny-wrapper': '1.0.0' }, 'tiny-git'],
  ['a host peer needed by a dependency', { 'tiny-zod-user': '1.0.0' }, 'zod'],
] as const) {
  test(`${what} is refused with BOT_ERR_CHANNEL_PACKAGE_DEPENDENCY_REFUSED, naming it, and nothing is installed`, async (t) => {
    const name = `refused-${what.toLowerCase().replace(/\W+/g, '-')}`;
    await publishChannel(name, dependencies);
    const downloads = dependencyDownloads();
    const refused = await install(`bot-channel-${name}@1.0.0`);
    assert.equal(refused.status, 422, refused.text);
    assert.equal(refused.body.error.code, 'BOT_ERR_CHANNEL_PACKAGE_DEPENDENCY_REFUSED');
    assert.equal(refused.body.error.details.dependency, named);
    assert.match(refused.body.error.message, new RegExp(named));
    // The whole tree is checked before any dependency is downloaded.
    assert.equal(dependencyDownloads(), downloads);
    await assertNotInstalled(t, host, `bot-channel-${name}`);
  });
}

test('a dependency whose tarball the registry gives no sha512 integrity for, or another one, is refused', async (t) => {
  const manifest = { name: 'tiny-unvouched', version: '1.0.0', main: 'index.js' };
  registry.publish(manifest, libraryTarball(manifest, { 'index.js': 'module.exports = 1;\n' }), { integrity: 'sha1-2jmj7l5rSw0yVb/vlWAYkK/YBwk=' });
  const other = { name: 'tiny-tampered', version: '1.0.0', main: 'index.js' };
  registry.publish(other, libraryTarball(other, { 'index.js': 'module.exports = 1;\n' }), { integrity: `sha512-${Buffer.alloc(64).toString('base64')}` });
  for (const dependency of ['tiny-unvouched', 'tiny-tampered']) {
    await publishChannel(`needs-${dependency}`, { [dependency]: '1.0.0' });
    const refused = await install(`bot-channel-needs-${dependency}@1.0.0`);
    assert.equal(refused.status, 422, refused.text);
    assert.equal(refused.body.error.code, 'BOT_ERR_CHANNEL_PACKAGE_INTEGRITY_MISMATCH');
    assert.match(refused.body.error.message, new RegExp(dependency));
    await assertNotInstalled(t, host, `bot-channel-needs-${dependency}`);
  }
});

/** The links below `modules`, as paths relative to it (the peers the host links, and nothing else). */
async function linksIn(modules: string): Promise<string[]> {
  const entries = await readdir(modules, { recursive: true, withFileTypes: true });
  const links = entries.filter((entry) => entry.isSymbolicLink()).map((entry) => path.relative(modules, path.join(entry.parentPath, entry.name)));
  for (const link of links) assert.ok(path.isAbsolute(await readlink(path.join(modules, link))), `${link} is not a peer link`);
  return links.sort();
}

