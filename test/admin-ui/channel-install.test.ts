/**
 * Channels > Install, in Chromium against a real `npm start` that installs from a test registry:
 * the manifest is shown before anything is installed, an install shows its progress and its
 * outcome, a refused package shows its code and leaves nothing installed, an upgrade says what
 * it replaces, a viewer reads without acting, a removal asks first, and the tarball upload says
 * it is off (BOT_CHANNEL_INSTALL=registry).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Route } from 'playwright-core';
import { browserSkipReason, saveScreenshot } from '../support/browser.ts';
import { packedChannel } from '../support/channel-package-tarballs.ts';
import { createSigningKey, sha512Integrity, startTestRegistry, type TestRegistry } from '../support/test-registry.ts';
import { startAdminHost, type AdminHost } from './admin-host.ts';
import { expect, expectUrl } from './expect-page.ts';

// One registry, one `npm start` and one page for the whole file; the tests run in order and build
// on each other (the package installed first is refused company, upgraded, read, then removed).
const skip = browserSkipReason();
// An install fetches, unpacks, rescans and starts the channel's sandboxed runner before it answers.
const INSTALL_TIMEOUT_MS = 30_000;

describe('channel install page', { skip }, () => {
  let registry: TestRegistry;
  let admin: AdminHost;
  let integrityOfX: string;
  before(async () => {
    registry = await startTestRegistry({ signingKey: createSigningKey() });
    integrityOfX = await publish('x', '1.0.0', (manifest) => {
      manifest.description = 'Talks to the X platform';
      manifest.bot = { egress: ['api.x.example'] };
    });
    await publish('y', '1.0.0', (manifest) => {
      manifest.dependencies = { 'left-pad': 'https://example.invalid/left-pad-1.0.0.tgz' };
    });
    admin = await startAdminHost({ channelRegistry: registry.url });
  });
  after(async () => {
    await admin?.close();
    await registry?.close();
  });

  async function publish(name: string, version: string, edit?: (manifest: Record<string, unknown>) => void): Promise<string> {
    const { manifest, tarball } = await packedChannel(name, version, edit);
    registry.publish(manifest, tarball);
    return sha512Integrity(tarball);
  }

  const installPage = async () => {
    await admin.page.getByRole('link', { name: 'Install', exact: true }).click();
    await expect(admin.page.getByRole('heading', { name: 'Install channels' })).visible();
  };
  const specField = () => admin.page.getByLabel(/^Package/);
  const preview = () => admin.page.getByRole('region', { name: 'Preview' });
  const installButton = () => admin.page.getByRole('button', { name: 'Install', exact: true });
  const row = (name: string) => admin.page.locator(`tr[data-package="${name}"]`);
  const latestAudit = () => admin.page.getByRole('table', { name: 'Audit' }).locator('tbody tr').first();

  test('an admin previews a package, reads its manifest before confirming, installs it, and its channel is registered', async () => {
    const { page } = admin;
    await page.goto(await admin.loginLink());
    await expectUrl(page, /\/workflows$/);
    await installPage();
    await expect(page.getByText('The host has installed no channel package.')).visible();
    await expect(page.locator('[data-policy]')).text('registry');
    await expect(installButton()).disabled();

    await specField().fill('bot-channel-x@1.0.0');
    await page.getByRole('button', { name: 'Preview' }).click();
    await expect(preview().getByRole('heading', { name: 'bot-channel-x@1.0.0' })).visible();
    await expect(preview().locator('[data-fact="egress"]')).text('api.x.example');
    await expect(preview()).contains('Talks to the X platform');
    await expect(preview()).contains('>=3 <4');
    await expect(preview().locator('[data-fact="install-scripts"]')).contains('none');
    await expect(preview().locator('code.integrity')).text(integrityOfX);
    await expect(preview().locator('[data-trust]')).contains('verified — The registry signed this version');
    await saveScreenshot(page, 'channel-install-preview');

    // Install answers the fields as they are: another spec sets the preview aside until previewed.
    await specField().fill('bot-channel-x@1.0');
    await expect(preview()).hidden();
    await expect(installButton()).disabled();
    await specField().fill('bot-channel-x@1.0.0');
    await expect(preview()).visible();

    // The install request is held until its busy state has been seen.
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const hold = async (route: Route) => {
      if (route.request().method() === 'POST') await held;
      await route.continue();
    };
    await page.route('**/api/channel/packages', hold);
    await installButton().click();
    await expect(page.getByRole('button', { name: 'Installing…' })).disabled();
    await expect(page.getByRole('status')).contains('Installing bot-channel-x@1.0.0');
    await saveScreenshot(page, 'channel-install-progress');
    release();
    await page.locator('[data-channel-status]').waitFor({ timeout: INSTALL_TIMEOUT_MS });
    await expect(page.locator('[data-channel-status="registered"]')).contains('Installed bot-channel-x@1.0.0: its channel "x" is registered.');
    await page.unroute('**/api/channel/packages', hold);

    await expect(row('bot-channel-x')).contains('1.0.0');
    await expect(row('bot-channel-x').locator('[data-trust]')).text('verified');
    await expect(row('bot-channel-x')).contains('api.x.example');
    await expect(row('bot-channel-x')).contains('admin, ');
    await expect(latestAudit()).contains('install');
    await expect(latestAudit()).contains('bot-channel-x@1.0.0');
    assert.equal(await latestAudit().getAttribute('data-outcome'), 'ok');
    await saveScreenshot(page, 'channel-install-installed');

    await page.getByRole('link', { name: 'See it on the Channels page' }).click();
    await expect(page.locator('tr[data-channel="x"]')).contains('bot-channel-x@1.0.0');
    await saveScreenshot(page, 'channel-install-channels');
  });

  test('a refused package shows its code and message by the form, and nothing is installed', async () => {
    const { page } = admin;
    await page.getByRole('link', { name: 'Install a package' }).click();
    await expect(page.getByRole('heading', { name: 'Install channels' })).visible();

    // A pin the tarball does not match: refused at the preview, nothing to install.
    await specField().fill('bot-channel-y@1.0.0');
    await page.getByLabel('Pinned integrity').fill(integrityOfX);
    await page.getByRole('button', { name: 'Preview' }).click();
    await expect(page.getByRole('alert')).contains('Preview refused');
    await expect(page.getByRole('alert').locator('.error-code')).text('BOT_ERR_CHANNEL_PACKAGE_INTEGRITY_MISMATCH');
    await expect(installButton()).disabled();

    // A dependency from outside the registry (a tarball URL): the preview lists it, the install refuses it.
    await page.getByLabel('Pinned integrity').fill('');
    await page.getByRole('button', { name: 'Preview' }).click();
    await expect(preview().locator('[data-fact="dependencies"]')).contains('left-pad https://example.invalid/left-pad-1.0.0.tgz');
    await installButton().click();
    const refusal = page.getByRole('alert');
    await refusal.waitFor({ timeout: INSTALL_TIMEOUT_MS });
    await expect(refusal).contains('Install refused: nothing was installed');
    await expect(refusal.locator('.error-code')).text('BOT_ERR_CHANNEL_PACKAGE_DEPENDENCY_REFUSED');
    await expect(refusal.locator('.error-message')).contains('depends on left-pad');
    await expect(latestAudit()).contains('bot-channel-y@1.0.0');
    assert.equal(await latestAudit().getAttribute('data-outcome'), 'BOT_ERR_CHANNEL_PACKAGE_DEPENDENCY_REFUSED');
    await expect(latestAudit().locator('code')).text('BOT_ERR_CHANNEL_PACKAGE_DEPENDENCY_REFUSED');
    assert.equal(await row('bot-channel-y').count(), 0);
    await saveScreenshot(page, 'channel-install-refused');

    const listed = await admin.api<{ items: { name: string }[] }>('GET', '/api/channel/packages');
    assert.deepEqual(listed.body.items.map((entry) => entry.name), ['bot-channel-x']);
    const channels = await admin.api<{ items: { name: string }[] }>('GET', '/api/channel');
    assert.equal(channels.body.items.some((channel) => channel.name === 'y'), false);
  });

  test('installing another version of an installed package is an upgrade from one version to the other', async () => {
    const { page } = admin;
    await publish('x', '1.1.0', (manifest) => {
      manifest.bot = { egress: ['api.x.example'] };
    });
    await specField().fill('bot-channel-x@1.1.0');
    await page.getByRole('button', { name: 'Preview' }).click();
    await expect(preview()).contains('Upgrade from 1.0.0 to 1.1.0.');
    await saveScreenshot(page, 'channel-install-upgrade-preview');
    await page.getByRole('button', { name: 'Upgrade', exact: true }).click();
    await page.locator('[data-channel-status]').waitFor({ timeout: INSTALL_TIMEOUT_MS });
    await expect(page.locator('[data-channel-status="registered"]')).contains('Installed bot-channel-x@1.1.0');
    await expect(row('bot-channel-x')).contains('1.1.0');
    await expect(latestAudit()).contains('upgrade');
    await expect(latestAudit()).contains('bot-channel-x@1.1.0');
  });

  test('a viewer sees the packages and the audit with the form and Remove disabled', async () => {
    const { page } = admin;
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('Token').fill(admin.token('viewer'));
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expectUrl(page, /\/workflows$/);
    await installPage();
    await expect(page.getByText('Your role cannot install or remove channel packages')).visible();
    await expect(row('bot-channel-x')).contains('1.1.0');
    await expect(latestAudit()).contains('bot-channel-x@1.1.0');
    await expect(specField()).disabled();
    await expect(page.getByRole('button', { name: 'Preview' })).disabled();
    await expect(page.getByRole('button', { name: 'Remove bot-channel-x' })).disabled();
    await saveScreenshot(page, 'channel-install-viewer');
  });

  test('an admin rolls a package back to the version its upgrade replaced, after confirming', async () => {
    const { page } = admin;
    await page.goto(await admin.loginLink());
    await expectUrl(page, /\/workflows$/);
    await installPage();
    await page.getByRole('button', { name: 'Roll back bot-channel-x to 1.0.0' }).click();
    const dialog = page.getByRole('dialog', { name: 'Roll bot-channel-x back to 1.0.0?' });
    await dialog.getByRole('button', { name: 'Roll back' }).click();
    await dialog.waitFor({ state: 'hidden', timeout: INSTALL_TIMEOUT_MS });
    await expect(row('bot-channel-x')).contains('1.0.0');
    await expect(page.getByRole('button', { name: 'Roll back bot-channel-x to 1.1.0' })).visible();
    await expect(latestAudit()).contains('rollback');
    const channels = await admin.api<{ items: { name: string; package: { version: string } | null }[] }>('GET', '/api/channel');
    assert.equal(channels.body.items.find((channel) => channel.name === 'x')?.package?.version, '1.0.0');
    await saveScreenshot(page, 'channel-install-rolled-back');
  });

  test('an admin removes a package after confirming, and its channel goes', async () => {
    const { page } = admin;
    await installPage();
    await page.getByRole('button', { name: 'Remove bot-channel-x' }).click();
    const dialog = page.getByRole('dialog', { name: 'Remove bot-channel-x?' });
    await expect(dialog).contains('Version 1.0.0 leaves every instance');
    await dialog.getByRole('button', { name: 'Remove' }).click();
    await dialog.waitFor({ state: 'hidden', timeout: INSTALL_TIMEOUT_MS });
    await expect(page.getByText('The host has installed no channel package.')).visible();
    await expect(latestAudit()).contains('remove');
    const channels = await admin.api<{ items: { name: string }[] }>('GET', '/api/channel');
    assert.equal(channels.body.items.some((channel) => channel.name === 'x'), false);
  });

  test('on a host that takes registry packages only, choosing a tarball file says uploads are off', async () => {
    const { page } = admin;
    await page.getByLabel('From a tarball file').check();
    await expect(page.locator('[data-uploads="off"]')).contains('BOT_CHANNEL_INSTALL=any allows them');
    await expect(page.getByLabel(/^Tarball/)).disabled();
    await expect(page.getByRole('button', { name: 'Preview' })).disabled();
    await page.getByLabel('From the registry').check();
    await expect(page.locator('[data-uploads="off"]')).hidden();
    await expect(specField()).visible();
  });
});
