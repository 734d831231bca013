/**
 * The host installs channel packages itself, through the admin API, from a real registry on a
 * free port: the package is registered and serving with no restart, nothing of it runs on the
 * way in, and what fails a check leaves the installed set as it was.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { readChannelTarball } from '../../../host/channels/packages/read-channel-tarball.ts';
import { packageJsonEntry, packFolder, tarballOf } from '../../support/build-tarball.ts';
import { packedChannel } from '../../support/channel-package-tarballs.ts';
import type { TestApp } from '../../support/test-app.ts';
import { assertNotInstalled, decodedText, startPackageHost, type PackageHost } from '../../support/package-host.ts';
import { sha512Integrity, type TestRegistry } from '../../support/test-registry.ts';

const SCRIPTED = new URL('../../fixtures/channel-packages/bot-channel-scripted/', import.meta.url).pathname;

let host: PackageHost;
let registry: TestRegistry;
let app: TestApp;
let storeDir: string;

before(async () => {
  host = await startPackageHost('registry');
  ({ registry, app, storeDir } = host);
});

after(() => host?.close());

async function publish(name: string, version: string, edit?: (manifest: Record<string, unknown>) => void): Promise<string> {
  const { manifest, tarball } = await packedChannel(name, version, edit);
  registry.publish(manifest, tarball);
  return sha512Integrity(tarball);
}

const install = (spec: string, integrity?: string, as = 'admin') => app.request('POST', '/api/channel/packages', { as, body: { spec, ...(integrity ? { integrity } : {}) } });

test('a channel package installed from the registry is registered and serving, with no restart', async () => {
  const integrity = await publish('echoer', '1.0.0');
  const installed = await install('bot-channel-echoer@1.0.0', integrity);
  assert.equal(installed.status, 200, installed.text);
  assert.equal(installed.body.package.integrity, integrity);
  assert.equal(installed.body.package.trust, 'unsigned');
  assert.deepEqual(installed.body.channel, { status: 'registered', name: 'echoer', code: null, message: null });
  assert.equal(await decodedText(app, 'echoer', 'hi'), '1.0.0:hi');
  const listed = await app.request('GET', '/api/channel/packages', { as: 'viewer' });
  assert.deepEqual(listed.body.items.map((entry: { name: string; version: string }) => `${entry.name}@${entry.version}`), ['bot-channel-echoer@1.0.0']);
  // Outside the app's node_modules: the next `npm ci` of the host leaves it alone.
  assert.ok(existsSync(path.join(storeDir, 'bot-channel-echoer', 'current', 'node_modules', 'bot-channel-echoer', 'package.json')));
});

test('an upgrade moves the channel to the new version, a rollback returns it to the one it replaced, and a removal stops it', async () => {
  await publish('turner', '1.0.0');
  await publish('turner', '2.0.0');
  assert.equal((await install('bot-channel-turner@1.0.0')).status, 200);
  assert.equal(await decodedText(app, 'turner', 'a'), '1.0.0:a');
  const upgraded = await install('bot-channel-turner@2.0.0');
  assert.equal(upgraded.status, 200, upgraded.text);
  assert.equal(await decodedText(app, 'turner', 'b'), '2.0.0:b');
  assert.equal(upgraded.body.package.previousVersion, '1.0.0');
  const downloads = registry.count('/bot-channel-turner/-/');
  const rolledBack = await app.request('POST', '/api/channel/packages/bot-channel-turner/rollback', { as: 'admin' });
  assert.equal(rolledBack.status, 200, rolledBack.text);
  assert.equal(rolledBack.body.package.version, '1.0.0');
  assert.equal(rolledBack.body.package.previousVersion, '2.0.0', 'a second rollback would return to 2.0.0');
  assert.equal(await decodedText(app, 'turner', 'c'), '1.0.0:c');
  assert.equal(registry.count('/bot-channel-turner/-/'), downloads, 'the rollback used the tarball kept in the database');
  const audit = await app.request('GET', '/api/channel/packages/audit', { as: 'viewer' });
  const actions = audit.body.items.filter((entry: { name: string }) => entry.name === 'bot-channel-turner').map((entry: { action: string; version: string }) => `${entry.action} ${entry.version}`);
  assert.deepEqual(actions, ['rollback 1.0.0', 'upgrade 2.0.0', 'install 1.0.0']);
  const removed = await app.request('DELETE', '/api/channel/packages/bot-channel-turner', { as: 'admin' });
  assert.equal(removed.status, 204, removed.text);
  assert.equal(app.services.channels.running('turner'), undefined);
  assert.equal((await app.request('DELETE', '/api/channel/packages/bot-channel-turner', { as: 'admin' })).body.error.code, 'BOT_ERR_CHANNEL_PACKAGE_NOT_INSTALLED');
  const noPrevious = await app.request('POST', '/api/channel/packages/bot-channel-echoer/rollback', { as: 'admin' });
  assert.equal(noPrevious.status, 409, noPrevious.text);
  assert.equal(noPrevious.body.error.code, 'BOT_ERR_CHANNEL_PACKAGE_NO_PREVIOUS');
});

test('installing needs channel:install, which only the admin role has', async () => {
  await publish('guarded', '1.0.0');
  for (const role of ['editor', 'viewer']) {
    const refused = await install('bot-channel-guarded@1.0.0', undefined, role);
    assert.equal(refused.status, 403, `${role}: ${refused.text}`);
  }
  assert.equal(app.services.channels.running('guarded'), undefined);
});

test('a pinned integrity the tarball does not match is refused: nothing installed, nothing unpacked, the refusal audited', async (t) => {
  await publish('pinned', '1.0.0');
  const other = await publish('pinned', '1.0.1');
  const refused = await install('bot-channel-pinned@1.0.0', other);
  assert.equal(refused.status, 422, refused.text);
  assert.equal(refused.body.error.code, 'BOT_ERR_CHANNEL_PACKAGE_INTEGRITY_MISMATCH');
  await assertNotInstalled(t, host, 'bot-channel-pinned');
  const audit = await app.request('GET', '/api/channel/packages/audit', { as: 'viewer' });
  assert.equal(audit.body.items[0].outcome, 'BOT_ERR_CHANNEL_PACKAGE_INTEGRITY_MISMATCH');
});

test("a package failing discovery's checks (a peer range the host's SDK is outside) is refused, and the running version keeps serving", async (t) => {
  await publish('picky', '1.0.0');
  assert.equal((await install('bot-channel-picky@1.0.0')).status, 200);
  await publish('picky', '2.0.0', (manifest) => {
    manifest.peerDependencies = { '@bot-ai/api': '>=4 <5' };
  });
  const refused = await install('bot-channel-picky@2.0.0');
  assert.equal(refused.status, 422, refused.text);
  assert.equal(refused.body.error.code, 'BOT_ERR_CHANNEL_PACKAGE_REJECTED');
  assert.equal(refused.body.error.details.check, 'BOT_ERR_PLUGIN_PEER_UNSATISFIED');
  const listed = await app.request('GET', '/api/channel/packages', { as: 'viewer' });
  assert.equal(listed.body.items.find((entry: { name: string }) => entry.name === 'bot-channel-picky').version, '1.0.0');
  assert.equal(await decodedText(app, 'picky', 'still'), '1.0.0:still');
  t.diagnostic('the old version serves on');
});

test('a version that fails to load in its sandbox is refused before it joins the set, and the running version keeps serving', async () => {
  await publish('fragile', '1.0.0');
  assert.equal((await install('bot-channel-fragile@1.0.0')).status, 200);
  const { manifest } = await packedChannel('fragile', '2.0.0');
  registry.publish(manifest, tarballOf([packageJsonEntry(manifest), { path: 'package/dist/index.channel.js', data: "throw new Error('broken at import');\n" }]));
  const refused = await install('bot-channel-fragile@2.0.0');
  assert.equal(refused.status, 422, refused.text);
  assert.equal(refused.body.error.code, 'BOT_ERR_CHANNEL_PACKAGE_REJECTED');
  assert.equal(refused.body.error.details.check, 'BOT_ERR_PLUGIN_IMPORT_FAILED');
  assert.equal(await decodedText(app, 'fragile', 'on'), '1.0.0:on');
});

test('a package whose channel name another package already serves is refused', async () => {
  await publish('first-owner', '1.0.0', (manifest) => {
    manifest.name = 'bot-channel-first-owner';
  });
  await publish('squatter', '1.0.0');
  assert.equal((await install('bot-channel-first-owner@1.0.0')).status, 200);
  // The squatter's channel file names itself "echoer", which bot-channel-echoer serves.
  const { manifest } = await packedChannel('squatter', '2.0.0');
  const { tarball: echoer } = await packedChannel('echoer', '9.9.9');
  const source = (await readChannelTarball(echoer)).find((entry) => entry.kind === 'file' && entry.path.endsWith('index.channel.js'));
  registry.publish(manifest, tarballOf([packageJsonEntry(manifest), { path: 'package/dist/index.channel.js', data: source?.kind === 'file' ? source.data : '' }]));
  const refused = await install('bot-channel-squatter@2.0.0');
  assert.equal(refused.status, 422, refused.text);
  assert.equal(refused.body.error.details.check, 'BOT_ERR_PLUGIN_DUPLICATE_NAME');
  assert.equal(await decodedText(app, 'echoer', 'mine'), '1.0.0:mine');
});

test('a package needing a dependency the registry does not have is refused, naming it', async (t) => {
  await publish('needy', '1.0.0', (manifest) => {
    manifest.dependencies = { 'left-pad': '1.3.0' };
  });
  const refused = await install('bot-channel-needy@1.0.0');
  assert.equal(refused.status, 404, refused.text);
  assert.equal(refused.body.error.code, 'BOT_ERR_CHANNEL_PACKAGE_NOT_FOUND');
  assert.match(refused.body.error.message, /left-pad@1\.3\.0/);
  await assertNotInstalled(t, host, 'bot-channel-needy');
});

test('a package with preinstall, install and postinstall scripts and a binding.gyp: none of them runs on the host, and its import, tried in its sandbox, cannot write either', async (t) => {
  const markerDir = await mkdtemp(path.join(tmpdir(), 'bot-script-marker-'));
  t.after(() => rm(markerDir, { recursive: true, force: true }));
  const marker = path.join(markerDir, 'ran');
  process.env.CHANNEL_SCRIPT_MARKER = marker;
  t.after(() => delete process.env.CHANNEL_SCRIPT_MARKER);
  const manifest = JSON.parse(await readFile(path.join(SCRIPTED, 'package.json'), 'utf8')) as Record<string, unknown>;
  registry.publish(manifest, await packFolder(SCRIPTED));
  const preview = await app.request('POST', '/api/channel/packages/preview', { as: 'admin', body: { spec: 'bot-channel-scripted' } });
  assert.equal(preview.status, 200, preview.text);
  assert.equal(preview.body.manifest.hasInstallScripts, true);
  // Its channel file writes the mark when imported: the trial start in the sandbox refuses the
  // write, so the package is refused, with the code that says why.
  const refused = await install('bot-channel-scripted');
  assert.equal(refused.status, 422, refused.text);
  assert.equal(refused.body.error.details.check, 'BOT_ERR_PLUGIN_IMPORT_FAILED');
  assert.match(refused.body.error.message, /allow-fs-write/);
  assert.equal(existsSync(marker), false, `code of the package ran on the host: ${existsSync(marker) ? await readFile(marker, 'utf8') : ''}`);
  await assertNotInstalled(t, host, 'bot-channel-scripted');
});

