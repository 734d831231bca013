/**
 * Channels > Install with an uploaded tarball, in Chromium against a real `npm start` that
 * accepts uploads (BOT_CHANNEL_INSTALL=any): the operator chooses a .tgz, reads its manifest and
 * trust before confirming, and installs the bytes previewed; its channel is registered.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { browserSkipReason, saveScreenshot } from '../support/browser.ts';
import { packedChannel } from '../support/channel-package-tarballs.ts';
import { sha512Integrity, startTestRegistry, type TestRegistry } from '../support/test-registry.ts';
import { startAdminHost, type AdminHost } from './admin-host.ts';
import { expect, expectUrl } from './expect-page.ts';

const skip = browserSkipReason();
// An install unpacks, rescans and starts the channel's sandboxed runner before it answers.
const INSTALL_TIMEOUT_MS = 30_000;

describe('channel install page, uploading a tarball', { skip }, () => {
  let registry: TestRegistry;
  let admin: AdminHost;
  let fileDir: string;
  let tarballFile: string;
  let integrity: string;
  before(async () => {
    const { tarball } = await packedChannel('uploaded', '1.0.0', (manifest) => {
      manifest.description = 'Arrived as a file';
    });
    integrity = sha512Integrity(tarball);
    fileDir = await mkdtemp(path.join(tmpdir(), 'bot-upload-file-'));
    tarballFile = path.join(fileDir, 'bot-channel-uploaded-1.0.0.tgz');
    await writeFile(tarballFile, tarball);
    // The registry the package's dependencies would come from; it publishes nothing here.
    registry = await startTestRegistry();
    admin = await startAdminHost({ channelRegistry: registry.url, channelInstall: 'any' });
  });
  after(async () => {
    await admin?.close();
    await registry?.close();
    if (fileDir) await rm(fileDir, { recursive: true, force: true });
  });

  test('an admin chooses a .tgz, previews it as unverified, installs those bytes, and its channel is registered', async () => {
    const { page } = admin;
    await page.goto(await admin.loginLink());
    await expectUrl(page, /\/workflows$/);
    await page.getByRole('link', { name: 'Install', exact: true }).click();
    await expect(page.locator('[data-policy]')).text('any');

    await page.getByLabel('From a tarball file').check();
    await page.getByLabel(/^Tarball/).setInputFiles(tarballFile);
    await page.getByRole('button', { name: 'Preview' }).click();
    const preview = page.getByRole('region', { name: 'Preview' });
    await expect(preview.getByRole('heading', { name: 'bot-channel-uploaded@1.0.0' })).visible();
    await expect(preview).contains('Arrived as a file');
    await expect(preview.locator('[data-fact="file"]')).text('bot-channel-uploaded-1.0.0.tgz');
    await expect(preview.locator('code.integrity')).text(integrity);
    await expect(preview.locator('[data-trust]')).contains('unverified — An uploaded tarball with no pinned integrity');
    await saveScreenshot(page, 'channel-upload-preview');

    await page.getByRole('button', { name: 'Install', exact: true }).click();
    await page.locator('[data-channel-status]').waitFor({ timeout: INSTALL_TIMEOUT_MS });
    await expect(page.locator('[data-channel-status="registered"]')).contains('Installed bot-channel-uploaded@1.0.0: its channel "uploaded" is registered.');
    const row = page.locator('tr[data-package="bot-channel-uploaded"]');
    await expect(row).contains('1.0.0');
    // The install was pinned to the integrity the preview computed: the bytes previewed.
    await expect(row.locator('[data-trust]')).text('pinned');
    await saveScreenshot(page, 'channel-upload-installed');

    const listed = await admin.api<{ items: { name: string; integrity: string }[] }>('GET', '/api/channel/packages');
    assert.deepEqual(listed.body.items.map((entry) => [entry.name, entry.integrity]), [['bot-channel-uploaded', integrity]]);
    const channels = await admin.api<{ items: { name: string }[] }>('GET', '/api/channel');
    assert.ok(channels.body.items.some((channel) => channel.name === 'uploaded'));
  });
});
