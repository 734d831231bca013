/**
 * The four real-platform packages are publishable and installable like any third party's: the
 * tarball `npm pack` makes of each (what `npm publish` would upload) is served by a registry and
 * installed by the host's own installer, with its compiled handler, fixtures and README, and with
 * no dependency of its own to fetch.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { after, before, test } from 'node:test';
import { createTestDatabase, type TestDatabase } from '../support/test-database.ts';
import { sha512Integrity, startTestRegistry, type TestRegistry } from '../support/test-registry.ts';

const PLATFORMS = ['telegram', 'whatsapp', 'messenger', 'slack'];
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const run = promisify(execFile);

let registry: TestRegistry;
let database: TestDatabase;
let workDir: string;

before(async () => {
  registry = await startTestRegistry();
  database = await createTestDatabase();
  workDir = await mkdtemp(path.join(tmpdir(), 'bot-platform-packs-'));
  // The store is inside it, and runners read the store as users of their own.
  await chmod(workDir, 0o755);
});

after(async () => {
  await registry?.close();
  await database?.close();
  await rm(workDir, { recursive: true, force: true });
});

/** `npm pack` of the package folder, as `npm publish` would upload it. */
async function pack(folder: string): Promise<Buffer> {
  const { stdout } = await run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', workDir], { cwd: folder, timeout: 60_000 });
  const [{ filename }] = JSON.parse(stdout) as [{ filename: string }];
  return readFile(path.join(workDir, filename));
}

for (const platform of PLATFORMS) {
  test(`bot-channel-${platform}: the packed tarball installs through the host's installer`, async () => {
    const folder = path.join(ROOT, 'plugins', `bot-channel-${platform}`);
    const manifest = JSON.parse(await readFile(path.join(folder, 'package.json'), 'utf8')) as Record<string, unknown>;
    assert.equal(manifest.private, undefined, 'a package to publish is not private');
    assert.equal(manifest.dependencies, undefined, 'the SDK and zod are peers the host provides; nothing else is needed');
    const tarball = await pack(folder);
    registry.publish(manifest, tarball);
    const storeDir = path.join(workDir, `store-${platform}`);
    const env = {
      PATH: process.env.PATH ?? '',
      DATABASE_URL: database.url,
      BOT_AUTH_SECRET: 'platform-pack-auth-secret-0123456789abcdef-01',
      BOT_DOWNLOAD_SECRET: 'platform-pack-download-secret-0123456789abcd',
      BOT_CHANNEL_REGISTRY: registry.url,
      BOT_CHANNEL_STORE_DIR: storeDir,
    };
    const spec = `bot-channel-${platform}@${String(manifest.version)}`;
    const installed = await run(process.execPath, ['--import', 'tsx', 'scripts/channel.ts', 'install', spec, '--integrity', sha512Integrity(tarball)], { cwd: ROOT, env, timeout: 60_000 }).catch(
      (error: { stdout?: string; stderr?: string }) => assert.fail(`install failed:\n${error.stdout ?? ''}${error.stderr ?? ''}`),
    );
    assert.match(installed.stdout, new RegExp(`installed ${spec.replace(/[.]/g, '\\.')} `));
    const unpacked = path.join(storeDir, `bot-channel-${platform}`, 'current', 'node_modules', `bot-channel-${platform}`);
    for (const file of ['dist/index.channel.js', 'fixtures/channel-check.json', 'README.md']) assert.ok(existsSync(path.join(unpacked, file)), `${file} is in the package`);
  });
}
