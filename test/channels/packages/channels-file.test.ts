/**
 * BOT_CHANNELS_FILE: operators who deploy from configuration declare the packages, pinned, and
 * the host reconciles its installed set with the file; the API then only reads.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { parseChannelsFile } from '../../../host/channels/packages/channels-file.ts';
import { packedChannel } from '../../support/channel-package-tarballs.ts';
import { createPluginRoot } from '../../support/temp-plugin-root.ts';
import { createTestApp } from '../../support/test-app.ts';
import { sha512Integrity, startTestRegistry } from '../../support/test-registry.ts';

const PIN = `sha512-${'a'.repeat(86)}==`;

test('a channels file is read as pinned name@version#integrity lines, with blank and comment lines', () => {
  assert.deepEqual(parseChannelsFile(`# production channels\n\nbot-channel-x@1.2.0#${PIN}\n  bot-channel-y@2.0.0-rc.1#${PIN}  \n`), [
    { name: 'bot-channel-x', version: '1.2.0', integrity: PIN },
    { name: 'bot-channel-y', version: '2.0.0-rc.1', integrity: PIN },
  ]);
});

test('a line that is not pinned, or names a package twice, refuses the whole file with its line number', () => {
  const bad = [
    [`bot-channel-x@^1.2.0#${PIN}`, /line 1: "\^1\.2\.0" is not an exact version/],
    ['bot-channel-x@1.2.0', /line 1: expected name@version#sha512/],
    [`bot-channel-x@1.2.0#sha1-${'a'.repeat(27)}=`, /line 1: expected/],
    [`left-pad@1.0.0#${PIN}`, /line 1: "left-pad" is not a channel package name/],
    [`bot-channel-x@1.0.0#${PIN}\nbot-channel-x@1.1.0#${PIN}`, /line 2: bot-channel-x is declared twice/],
  ] as const;
  for (const [text, message] of bad) assert.throws(() => parseChannelsFile(text), { code: 'BOT_ERR_CHANNELS_FILE_INVALID', message }, text);
});

test('the host makes its installed set what the file declares, and its API refuses to change it meanwhile', async (t) => {
  const registry = await startTestRegistry();
  const storeDir = await mkdtemp(path.join(tmpdir(), 'bot-file-store-'));
  const appRoot = await createPluginRoot('bot-file-app-');
  const app = await createTestApp({ channels: { appRoot }, channelPackages: { storeDir, policy: 'registry', registry: { url: registry.url }, declarative: true } });
  t.after(async () => {
    await app.close();
    await registry.close();
    await rm(storeDir, { recursive: true, force: true });
    await rm(appRoot, { recursive: true, force: true });
  });
  await app.services.channels.load();
  const pins: Record<string, string> = {};
  for (const version of ['1.0.0', '2.0.0']) {
    const { manifest, tarball } = await packedChannel('declared', version);
    registry.publish(manifest, tarball);
    pins[version] = sha512Integrity(tarball);
  }
  const version = () => app.services.channels.registered().find((entry) => entry.name === 'declared')?.package?.version;

  assert.deepEqual(await app.services.channelPackages.reconcile([{ name: 'bot-channel-declared', version: '1.0.0', integrity: pins['1.0.0']! }], 'file:channels.txt'), []);
  assert.equal(version(), '1.0.0');
  const refused = await app.request('POST', '/api/channel/packages', { as: 'admin', body: { spec: 'bot-channel-declared@2.0.0' } });
  assert.equal(refused.status, 409, refused.text);
  assert.equal(refused.body.error.code, 'BOT_ERR_CHANNEL_INSTALL_DECLARATIVE');
  assert.equal((await app.request('GET', '/api/channel/packages', { as: 'viewer' })).body.declarative, true);

  // A wrong pin fails that package only, and what was installed stays.
  const failures = await app.services.channelPackages.reconcile([{ name: 'bot-channel-declared', version: '2.0.0', integrity: pins['1.0.0']! }], 'file:channels.txt');
  assert.deepEqual(failures.map((failure) => failure.code), ['BOT_ERR_CHANNEL_PACKAGE_INTEGRITY_MISMATCH']);
  assert.equal(version(), '1.0.0');
  await app.services.channelPackages.reconcile([{ name: 'bot-channel-declared', version: '2.0.0', integrity: pins['2.0.0']! }], 'file:channels.txt');
  assert.equal(version(), '2.0.0');
  await app.services.channelPackages.reconcile([], 'file:channels.txt');
  assert.equal(version(), undefined);
  const audit = await app.request('GET', '/api/channel/packages/audit', { as: 'viewer' });
  assert.ok(audit.body.items.every((entry: { actor: string }) => entry.actor === 'file:channels.txt'));
});
