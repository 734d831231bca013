/**
 * `npm start` with BOT_CHANNELS_FILE: the packages the file pins are installed from the registry
 * as the host starts, and serve; a file that does not parse stops the start with one line.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { test, type TestContext } from 'node:test';
import { signAdminToken } from '../../host/auth/admin-token.ts';
import { packedChannel } from '../support/channel-package-tarballs.ts';
import { startHostProcess } from '../support/host-process.ts';
import { createPluginRoot } from '../support/temp-plugin-root.ts';
import { createTestDatabase } from '../support/test-database.ts';
import { sha512Integrity, startTestRegistry } from '../support/test-registry.ts';

const AUTH_SECRET = 'channels-file-test-auth-secret-0123456789abcd';
const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));

async function hostEnvironment(t: TestContext, channelsFile: string, registryUrl: string): Promise<Record<string, string>> {
  const database = await createTestDatabase();
  t.after(() => database.close());
  const folder = await mkdtemp(path.join(tmpdir(), 'bot-channels-file-'));
  // Runners of a root host read the store as users of their own: the folders above it let them pass.
  await chmod(folder, 0o755);
  const appRoot = await createPluginRoot('bot-channels-file-app-');
  t.after(() => Promise.all([rm(folder, { recursive: true, force: true }), rm(appRoot, { recursive: true, force: true })]));
  const file = path.join(folder, 'channels.txt');
  await writeFile(file, channelsFile);
  return {
    DATABASE_URL: database.url,
    BOT_DATA_DIR: path.join(folder, 'data'),
    BOT_APP_ROOT: appRoot,
    BOT_AUTH_SECRET: AUTH_SECRET,
    BOT_DOWNLOAD_SECRET: 'channels-file-test-download-secret-0123456789ab',
    BOT_CHANNELS_FILE: file,
    BOT_CHANNEL_REGISTRY: registryUrl,
    BOT_CHANNEL_STORE_DIR: path.join(folder, 'store'),
  };
}

test('the host installs the packages BOT_CHANNELS_FILE pins as it starts, and they serve', async (t) => {
  const registry = await startTestRegistry();
  t.after(() => registry.close());
  const { manifest, tarball } = await packedChannel('filed', '1.0.0');
  registry.publish(manifest, tarball);
  const env = await hostEnvironment(t, `# deployed from configuration\nbot-channel-filed@1.0.0#${sha512Integrity(tarball)}\n`, registry.url);
  const host = await startHostProcess(env);
  t.after(() => host.stop());
  const deadline = Date.now() + 60_000;
  while (!/channel packages reconciled with BOT_CHANNELS_FILE/.test(host.output())) {
    if (Date.now() > deadline) assert.fail(`the host did not reconcile the file:\n${host.output().slice(-3_000)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const token = signAdminToken({ sub: 'file-test', role: 'admin' }, AUTH_SECRET, { ttl: '1h' });
  const listed = await fetch(`${host.url}/api/channel`, { headers: { authorization: `Bearer ${token}` } });
  const channels = ((await listed.json()) as { items: Array<{ name: string; running: boolean; package: { version: string } | null }> }).items;
  const filed = channels.find((channel) => channel.name === 'filed');
  assert.deepEqual({ running: filed?.running, version: filed?.package?.version }, { running: true, version: '1.0.0' }, host.output().slice(-4_000));
});

test('a BOT_CHANNELS_FILE that does not parse stops the start with one line naming the line', async (t) => {
  const env = await hostEnvironment(t, 'bot-channel-filed@^1.0.0\n', 'http://127.0.0.1:9/');
  const child = spawn('npm', ['start', '--silent'], { cwd: REPO_ROOT, env: { ...process.env, ...env, PORT: '0', BOT_LOG_PRETTY: 'false' }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const [code] = (await once(child, 'exit')) as [number | null];
  assert.equal(code, 1, output);
  assert.match(output, /bot host failed to start: BOT_ERR_CHANNELS_FILE_INVALID: .*channels\.txt, line 1: expected name@version#sha512/);
});
