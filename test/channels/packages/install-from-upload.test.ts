/**
 * The admin API installs a channel package from an uploaded tarball (BOT_CHANNEL_INSTALL=any):
 * the body is the tarball's bytes, the optional pin a query parameter; the package is checked
 * as a registry package is, then registered and serving with no restart.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { DEFAULT_MAX_TARBALL_BYTES } from '../../../host/channels/packages/fetch-channel-package.ts';
import { packageJsonEntry, tarballOf } from '../../support/build-tarball.ts';
import { packedChannel } from '../../support/channel-package-tarballs.ts';
import { createTestApp, type TestApp } from '../../support/test-app.ts';
import { assertNotInstalled, decodedText, startPackageHost, type PackageHost } from '../../support/package-host.ts';
import { sha512Integrity, type TestRegistry } from '../../support/test-registry.ts';


let host: PackageHost;
let registry: TestRegistry;
let app: TestApp;
let storeDir: string;

before(async () => {
  host = await startPackageHost('any');
  ({ registry, app, storeDir } = host);
});

after(() => host?.close());

/** Posts `bytes` to an upload route, with `integrity` as the pin when given. */
function upload(route: 'upload' | 'upload/preview', bytes: Buffer, options: { integrity?: string; type?: string; on?: TestApp } = {}) {
  const query = options.integrity === undefined ? '' : `?integrity=${encodeURIComponent(options.integrity)}`;
  return (options.on ?? app).request('POST', `/api/channel/packages/${route}${query}`, { as: 'admin', raw: { bytes, type: options.type ?? 'application/octet-stream' } });
}


test('an upload matching its pinned integrity is previewed and installed as "pinned", registered and serving', async () => {
  const { tarball } = await packedChannel('carrier', '1.0.0');
  const integrity = sha512Integrity(tarball);
  const previewed = await upload('upload/preview', tarball, { integrity });
  assert.equal(previewed.status, 200, previewed.text);
  assert.deepEqual({ name: previewed.body.name, version: previewed.body.version, integrity: previewed.body.integrity, trust: previewed.body.trust }, { name: 'bot-channel-carrier', version: '1.0.0', integrity, trust: 'pinned' });
  const installed = await upload('upload', tarball, { integrity, type: 'application/gzip' });
  assert.equal(installed.status, 200, installed.text);
  assert.equal(installed.body.package.trust, 'pinned');
  assert.equal(installed.body.package.integrity, integrity);
  assert.deepEqual(installed.body.channel, { status: 'registered', name: 'carrier', code: null, message: null });
  assert.equal(await decodedText(app, 'carrier', 'hi'), '1.0.0:hi');
});

test('an upload without a pin is "unverified" in the preview and once installed', async () => {
  const { tarball } = await packedChannel('stray', '1.0.0');
  const previewed = await upload('upload/preview', tarball);
  assert.equal(previewed.status, 200, previewed.text);
  assert.equal(previewed.body.trust, 'unverified');
  assert.equal(previewed.body.publishedAt, null);
  const installed = await upload('upload', tarball);
  assert.equal(installed.status, 200, installed.text);
  assert.equal(installed.body.package.trust, 'unverified');
  const audit = await app.request('GET', '/api/channel/packages/audit', { as: 'viewer' });
  assert.deepEqual([audit.body.items[0].action, audit.body.items[0].name, audit.body.items[0].actor], ['install', 'bot-channel-stray', 'admin-user']);
});

test('an upload that does not match its pinned integrity is refused with 422 and nothing is installed', async (t) => {
  const { tarball } = await packedChannel('mismatched', '1.0.0');
  const other = sha512Integrity(Buffer.from('the tarball the operator reviewed'));
  for (const route of ['upload/preview', 'upload'] as const) {
    const refused = await upload(route, tarball, { integrity: other });
    assert.equal(refused.status, 422, `${route}: ${refused.text}`);
    assert.equal(refused.body.error.code, 'BOT_ERR_CHANNEL_PACKAGE_INTEGRITY_MISMATCH');
  }
  await assertNotInstalled(t, host, 'bot-channel-mismatched');
});

test('a tarball with an entry climbing out of the package (`../`) is refused with 422 and nothing is unpacked', async (t) => {
  const manifest = { name: 'bot-channel-climber', version: '1.0.0', peerDependencies: { '@bot-ai/api': '>=3 <4' } };
  const hostile = tarballOf([packageJsonEntry(manifest), { path: 'package/../../escaped.js', data: 'export {};' }]);
  const refused = await upload('upload', hostile);
  assert.equal(refused.status, 422, refused.text);
  assert.equal(refused.body.error.code, 'BOT_ERR_CHANNEL_PACKAGE_ENTRY_REFUSED');
  await assertNotInstalled(t, host, 'bot-channel-climber');
});

test('a body larger than the tarball cap is refused with 413', async () => {
  const refused = await upload('upload/preview', Buffer.alloc(DEFAULT_MAX_TARBALL_BYTES + 1));
  assert.equal(refused.status, 413, refused.text);
  assert.equal(refused.body.error.code, 'BOT_ERR_HTTP_BODY_TOO_LARGE');
});

test('a body of another content type is refused with 415, JSON included', async () => {
  const { tarball } = await packedChannel('typed', '1.0.0');
  for (const type of ['application/json', 'multipart/form-data; boundary=x', 'text/plain']) {
    const refused = await upload('upload', tarball, { type });
    assert.equal(refused.status, 415, `${type}: ${refused.text}`);
    assert.equal(refused.body.error.code, 'BOT_ERR_HTTP_UNSUPPORTED_MEDIA_TYPE');
  }
});

test('uploading needs channel:install, which only the admin role has', async () => {
  const { tarball } = await packedChannel('guarded-upload', '1.0.0');
  for (const role of ['editor', 'viewer']) {
    const refused = await app.request('POST', '/api/channel/packages/upload', { as: role, raw: { bytes: tarball, type: 'application/gzip' } });
    assert.equal(refused.status, 403, `${role}: ${refused.text}`);
    assert.equal(refused.body.error.code, 'BOT_ERR_AUTH_FORBIDDEN');
  }
});

test('with BOT_CHANNEL_INSTALL=registry an upload is refused with 403, preview and install alike', async (t) => {
  const registryOnly = await createTestApp({
    database: app.database,
    channels: { appRoot: host.appRoot },
    channelPackages: { storeDir, policy: 'registry', registry: { url: registry.url } },
  });
  t.after(() => registryOnly.close());
  const { tarball } = await packedChannel('refused-upload', '1.0.0');
  for (const route of ['upload/preview', 'upload'] as const) {
    const refused = await upload(route, tarball, { on: registryOnly });
    assert.equal(refused.status, 403, `${route}: ${refused.text}`);
    assert.equal(refused.body.error.code, 'BOT_ERR_CHANNEL_INSTALL_OFF');
  }
  await assertNotInstalled(t, host, 'bot-channel-refused-upload');
});
