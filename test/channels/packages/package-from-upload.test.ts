import assert from 'node:assert/strict';
import { test } from 'node:test';
import { packageFromUpload } from '../../../host/channels/packages/fetch-channel-package.ts';
import { packageJsonEntry, packFolder, tarballOf } from '../../support/build-tarball.ts';
import { sha512Integrity } from '../../support/test-registry.ts';

const parrotTarball = await packFolder(new URL('../../fixtures/channel-packages/bot-channel-parrot/', import.meta.url).pathname);

test('an upload that matches the pinned integrity is trusted as "pinned", named by its own package.json', async () => {
  const fetched = await packageFromUpload(parrotTarball, { pinnedIntegrity: sha512Integrity(parrotTarball) });
  assert.equal(fetched.trust, 'pinned');
  assert.equal(fetched.name, 'bot-channel-parrot');
  assert.equal(fetched.version, '1.2.0');
  assert.equal(fetched.integrity, sha512Integrity(parrotTarball));
  assert.equal(fetched.publishedAt, undefined);
  assert.deepEqual(fetched.manifest.egress, ['api.parrot.example']);
});

test('an upload without a pinned integrity is "unverified", and the note says nothing vouches for it', async () => {
  const fetched = await packageFromUpload(parrotTarball);
  assert.equal(fetched.trust, 'unverified');
  assert.match(fetched.trustNote, /Nothing vouches/);
});

test('an upload that does not match the pinned integrity is refused', async () => {
  const pinnedIntegrity = sha512Integrity(Buffer.from('the release the operator reviewed'));
  await assert.rejects(packageFromUpload(parrotTarball, { pinnedIntegrity }), { code: 'BOT_ERR_CHANNEL_PACKAGE_INTEGRITY_MISMATCH' });
});

test('a pin that holds no sha512 is refused', async () => {
  await assert.rejects(packageFromUpload(parrotTarball, { pinnedIntegrity: 'sha1-2jmj7l5rSw0yVb/vlWAYkK/YBwk=' }), { code: 'BOT_ERR_CHANNEL_PACKAGE_INTEGRITY_MISMATCH' });
});

test('an upload of a package not named bot-channel-* is refused', async () => {
  const tarball = tarballOf([packageJsonEntry({ name: 'left-pad', version: '1.3.0' })]);
  await assert.rejects(packageFromUpload(tarball), { code: 'BOT_ERR_CHANNEL_PACKAGE_NAME_INVALID' });
});

test('an upload larger than maxTarballBytes is refused before it is read', async () => {
  await assert.rejects(packageFromUpload(parrotTarball, { maxTarballBytes: 100 }), { code: 'BOT_ERR_CHANNEL_PACKAGE_TOO_LARGE' });
});

const badManifests: [string, Buffer][] = [
  ['no package.json', tarballOf([{ path: 'package/index.js', data: '' }])],
  ['a package.json that is not JSON', tarballOf([{ path: 'package/package.json', data: '{ name: ' }])],
  ['a version that is not semver', tarballOf([packageJsonEntry({ name: 'bot-channel-parrot', version: 'one' })])],
  ['a malformed bot.egress', tarballOf([packageJsonEntry({ name: 'bot-channel-parrot', version: '1.0.0', bot: { egress: 'https://anywhere.example' } })])],
];
for (const [what, tarball] of badManifests) {
  test(`an upload with ${what} is refused with BOT_ERR_CHANNEL_PACKAGE_MANIFEST_INVALID`, async () => {
    await assert.rejects(packageFromUpload(tarball), { code: 'BOT_ERR_CHANNEL_PACKAGE_MANIFEST_INVALID' });
  });
}

test('a binding.gyp alone counts as an install script', async () => {
  const manifest = { name: 'bot-channel-native', version: '1.0.0' };
  const plain = await packageFromUpload(tarballOf([packageJsonEntry(manifest)]));
  const native = await packageFromUpload(tarballOf([packageJsonEntry(manifest), { path: 'package/binding.gyp', data: '{ "targets": [] }' }]));
  assert.equal(plain.manifest.hasInstallScripts, false);
  assert.equal(native.manifest.hasInstallScripts, true);
});

test('bundleDependencies lists the bundled names, and `true` bundles every dependency', async () => {
  const listed = { name: 'bot-channel-bundle', version: '1.0.0', dependencies: { a: '1', b: '1' }, bundleDependencies: ['a'] };
  const all = { ...listed, bundleDependencies: undefined, bundledDependencies: true };
  assert.deepEqual((await packageFromUpload(tarballOf([packageJsonEntry(listed)]))).manifest.bundleDependencies, ['a']);
  assert.deepEqual((await packageFromUpload(tarballOf([packageJsonEntry(all)]))).manifest.bundleDependencies, ['a', 'b']);
});
