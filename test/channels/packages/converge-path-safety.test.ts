/**
 * Convergence takes names and versions from the database, where the API never lets a path
 * character in; but anyone with write access there could, and every instance would then unpack
 * outside BOT_CHANNEL_STORE_DIR and prune the folder the name leads to. The store refuses a name
 * that is not a channel package's and a version that is not semver, and a stored tarball must be
 * the package and version its row names.
 */
import assert from 'node:assert/strict';
import { chmod, mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { ChannelPackageStore } from '../../../host/channels/packages/channel-package-store.ts';
import { convergeChannelPackages } from '../../../host/channels/packages/converge-channel-packages.ts';
import { extractChannelPackage } from '../../../host/channels/packages/extract-channel-package.ts';
import type { InstalledPackage } from '../../../host/channels/packages/installed-packages.ts';
import { packageJsonEntry, tarballOf } from '../../support/build-tarball.ts';
import { sha512Integrity } from '../../support/test-registry.ts';

for (const [label, name, version] of [
  ['a name', '../victim', '1.0.0'],
  ['a version', 'bot-channel-x', '../../victim/1.0.0'],
] as const) {
  test(`a database row with path characters in ${label} touches nothing outside the store`, async (t) => {
    const base = await mkdtemp(path.join(tmpdir(), 'redteam-converge-'));
    t.after(() => rm(base, { recursive: true, force: true }));
    const store = path.join(base, 'store');
    const victim = path.join(base, 'victim');
    await mkdir(victim);
    for (const file of ['a', 'b', 'c']) await writeFile(path.join(victim, file), 'precious');
    const tarball = tarballOf([packageJsonEntry({ name: 'bot-channel-x', version: '1.0.0' }), { path: 'package/x.channel.js', data: 'export default 1' }]);
    const row: InstalledPackage = { name, version, integrity: sha512Integrity(tarball), trust: 'verified', manifest: {} as InstalledPackage['manifest'], installedBy: 'db', installedAt: '', previousVersion: null, dependenciesIntegrity: null };
    const installed = { list: async () => [row], tarball: async () => tarball, dependencies: async () => undefined };
    const failures = await convergeChannelPackages(installed, new ChannelPackageStore({ dir: store, hostRoot: base, providedPeers: [], extract: extractChannelPackage }));
    assert.equal(failures.length, 1, 'the row is reported as not applied');
    assert.deepEqual((await readdir(victim)).sort(), ['a', 'b', 'c'], 'convergence wrote or deleted outside BOT_CHANNEL_STORE_DIR');
  });
}

test("a stored tarball that is not the package and version its row names is not applied", async (t) => {
  const base = await mkdtemp(path.join(tmpdir(), 'converge-mismatch-'));
  t.after(() => rm(base, { recursive: true, force: true }));
  const tarball = tarballOf([packageJsonEntry({ name: 'bot-channel-other', version: '2.0.0' }), { path: 'package/x.channel.js', data: 'export default 1' }]);
  const row: InstalledPackage = { name: 'bot-channel-x', version: '1.0.0', integrity: sha512Integrity(tarball), trust: 'verified', manifest: {} as InstalledPackage['manifest'], installedBy: 'db', installedAt: '', previousVersion: null, dependenciesIntegrity: null };
  const store = new ChannelPackageStore({ dir: path.join(base, 'store'), hostRoot: base, providedPeers: [], extract: extractChannelPackage });
  const failures = await convergeChannelPackages({ list: async () => [row], tarball: async () => tarball, dependencies: async () => undefined }, store);
  assert.deepEqual(failures.map((failure) => failure.code), ['BOT_ERR_CHANNEL_PACKAGE_MANIFEST_INVALID']);
  assert.deepEqual(await store.currentNames(), []);
});

for (const [label, entry, code] of [
  ['a link', { path: 'package/left-pad', type: 'SymbolicLink', linkpath: '/etc' }, 'BOT_ERR_CHANNEL_PACKAGE_ENTRY_REFUSED'],
  ['a ".." path', { path: 'package/../../victim/x', data: 'overwritten' }, 'BOT_ERR_CHANNEL_PACKAGE_ENTRY_REFUSED'],
] as const) {
  test(`a stored dependencies bundle holding ${label} is not applied, and the package is not made current`, async (t) => {
    const base = await mkdtemp(path.join(tmpdir(), 'converge-bundle-'));
    t.after(() => rm(base, { recursive: true, force: true }));
    // As root, the store refuses a folder its runners could not reach; mkdtemp makes it 0700.
    await chmod(base, 0o755);
    const tarball = tarballOf([packageJsonEntry({ name: 'bot-channel-x', version: '1.0.0' }), { path: 'package/x.channel.js', data: 'export default 1' }]);
    const bundle = tarballOf([{ path: 'package/', type: 'Directory' }, entry]);
    const row: InstalledPackage = { name: 'bot-channel-x', version: '1.0.0', integrity: sha512Integrity(tarball), trust: 'verified', manifest: {} as InstalledPackage['manifest'], installedBy: 'db', installedAt: '', previousVersion: null, dependenciesIntegrity: sha512Integrity(bundle) };
    const store = new ChannelPackageStore({ dir: path.join(base, 'store'), hostRoot: base, providedPeers: [], extract: extractChannelPackage });
    const failures = await convergeChannelPackages({ list: async () => [row], tarball: async () => tarball, dependencies: async () => bundle }, store);
    assert.deepEqual(failures.map((failure) => failure.code), [code], JSON.stringify(failures));
    assert.deepEqual(await store.currentNames(), []);
    assert.deepEqual((await readdir(path.join(base, 'store', 'bot-channel-x'))).filter((name) => !name.startsWith('.')), []);
  });
}

test('a stored dependencies bundle that does not match its integrity is not applied', async (t) => {
  const base = await mkdtemp(path.join(tmpdir(), 'converge-bundle-'));
  t.after(() => rm(base, { recursive: true, force: true }));
  const tarball = tarballOf([packageJsonEntry({ name: 'bot-channel-x', version: '1.0.0' }), { path: 'package/x.channel.js', data: 'export default 1' }]);
  const bundle = tarballOf([{ path: 'package/left-pad/index.js', data: 'module.exports = 1' }]);
  const row: InstalledPackage = { name: 'bot-channel-x', version: '1.0.0', integrity: sha512Integrity(tarball), trust: 'verified', manifest: {} as InstalledPackage['manifest'], installedBy: 'db', installedAt: '', previousVersion: null, dependenciesIntegrity: sha512Integrity(Buffer.from('another bundle')) };
  const store = new ChannelPackageStore({ dir: path.join(base, 'store'), hostRoot: base, providedPeers: [], extract: extractChannelPackage });
  const failures = await convergeChannelPackages({ list: async () => [row], tarball: async () => tarball, dependencies: async () => bundle }, store);
  assert.deepEqual(failures.map((failure) => failure.code), ['BOT_ERR_CHANNEL_PACKAGE_INTEGRITY_MISMATCH']);
  assert.deepEqual(await store.currentNames(), []);
});
