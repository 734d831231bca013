/**
 * Links cannot widen what a runner reads. A package (or its install script, or a hand-built
 * folder) can make `node_modules/innocent -> /etc`; the runner is started here directly, past
 * discovery (which refuses such a package), so the runner's own binds are what is tried.
 */
import assert from 'node:assert/strict';
import { cp, mkdir, symlink } from 'node:fs/promises';
import path from 'node:path';
import { test, type TestContext } from 'node:test';
import { sandboxLoader } from '../../host/channels/load-channel-in-sandbox.ts';
import { linkedApp, type LinkedApp } from '../support/linked-app.ts';
import { assertRefused, attack, BYSTANDER_PACKAGE, BYSTANDER_SECRET, channelSettings, dataDirWithSecret, HOST_ROOT, HOSTILE_PACKAGE, markHostEnvironment, type Channel } from './hostile-runner.ts';

const MARKER = markHostEnvironment();

async function hostileApp(t: TestContext): Promise<LinkedApp & { dataDir: string }> {
  const app = await linkedApp(t, { 'bot-channel-hostile': HOSTILE_PACKAGE, 'bot-channel-bystander': BYSTANDER_PACKAGE });
  return { ...app, dataDir: await dataDirWithSecret(t, MARKER) };
}

async function start(t: TestContext, file: string, origin: 'package' | 'local', dataDir: string): Promise<Channel> {
  const settings = channelSettings();
  const loaded = await sandboxLoader({ ...settings, isolation: { ...settings.isolation!, privatePaths: [dataDir] } })({ file, realFile: file, origin });
  t.after(() => loaded.close());
  return { ...loaded, logger: settings.logger };
}

/** Each read through the link and at the real path it leads to is refused, and shows no secret. */
async function assertUnreadable(channel: Channel, reads: Array<[string, string]>): Promise<void> {
  for (const [what, file] of reads) {
    const outcome = await attack(channel, { attack: 'read-file', path: file });
    assertRefused(outcome, `reading ${what} (${file})`);
    assert.ok(!JSON.stringify(outcome).includes(MARKER) && !JSON.stringify(outcome).includes(BYSTANDER_SECRET), `${what} leaked`);
  }
}

test("links in a package's own node_modules reach neither /etc, the host's source, the data directory nor another channel", async (t) => {
  const app = await hostileApp(t);
  const modules = path.join(app.packageDir('bot-channel-hostile'), 'node_modules');
  await mkdir(modules);
  await symlink('/etc', path.join(modules, 'evil-etc'));
  await symlink(path.join(HOST_ROOT, 'host'), path.join(modules, 'evil-host'));
  await symlink(app.dataDir, path.join(modules, 'evil-var'));
  await symlink('../../bot-channel-bystander', path.join(modules, 'innocent-sample'));
  const hostile = await start(t, path.join(app.packageDir('bot-channel-hostile'), 'dist/index.channel.js'), 'package', app.dataDir);

  // The control: the package's own files are readable.
  const own = await attack(hostile, { attack: 'read-file', path: path.join(app.packageDir('bot-channel-hostile'), 'package.json') });
  assert.equal(own.ok, true, JSON.stringify(own));
  await assertUnreadable(hostile, [
    ['/etc/passwd through a link', path.join(modules, 'evil-etc/passwd')],
    ['/etc/passwd', '/etc/passwd'],
    ["the host's source through a link", path.join(modules, 'evil-host/config/config.schema.ts')],
    ["the host's source", path.join(HOST_ROOT, 'host/config/config.schema.ts')],
    ['the data directory through a link', path.join(modules, 'evil-var/secrets.json')],
    ['the data directory', path.join(app.dataDir, 'secrets.json')],
    ['another channel through a renamed link', path.join(modules, 'innocent-sample/secret.txt')],
    ['another channel', path.join(app.packageDir('bot-channel-bystander'), 'secret.txt')],
  ]);
  const listing = await attack(hostile, { attack: 'list-dir', path: path.join(HOST_ROOT, 'host') });
  if (listing.ok) assert.deepEqual(listing.value, ['channels'], "the host's source is listed beyond the runner");
});

test("a local channel's links reach neither /etc nor the host's source", async (t) => {
  const app = await hostileApp(t);
  const local = path.join(app.root, 'dist/extensions/channels/linked');
  await cp(path.join(HOSTILE_PACKAGE, 'dist'), local, { recursive: true });
  await symlink('/etc', path.join(local, 'etc'));
  await symlink(path.join(HOST_ROOT, 'host'), path.join(local, 'host'));
  const hostile = await start(t, path.join(local, 'index.channel.js'), 'local', app.dataDir);
  await assertUnreadable(hostile, [
    ['/etc/passwd through a link', path.join(local, 'etc/passwd')],
    ["the host's source through a link", path.join(local, 'host/config/config.schema.ts')],
  ]);
});
