/**
 * `npm run channel` installs, lists and removes the host's channel packages with no host
 * running: it writes the installed set in the host's database and unpacks the package into the
 * host's package folder, which a host then serves from at its start.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { after, before, test } from 'node:test';
import { packedChannel } from '../support/channel-package-tarballs.ts';
import { createTestDatabase, type TestDatabase } from '../support/test-database.ts';
import { sha512Integrity, startTestRegistry, type TestRegistry } from '../support/test-registry.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CLI = path.join(ROOT, 'scripts/channel.ts');

let registry: TestRegistry;
let database: TestDatabase;
let storeDir: string;
let integrity: string;

before(async () => {
  registry = await startTestRegistry();
  database = await createTestDatabase();
  storeDir = await mkdtemp(path.join(tmpdir(), 'bot-cli-store-'));
  const { manifest, tarball } = await packedChannel('cli', '1.0.0');
  registry.publish(manifest, tarball);
  integrity = sha512Integrity(tarball);
});

after(async () => {
  await registry?.close();
  await database?.close();
  await rm(storeDir, { recursive: true, force: true });
});

async function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const env = {
    PATH: process.env.PATH ?? '',
    DATABASE_URL: database.url,
    BOT_AUTH_SECRET: 'cli-test-auth-secret-0123456789abcdef-0123',
    BOT_DOWNLOAD_SECRET: 'cli-test-download-secret-0123456789abcdef-01',
    BOT_CHANNEL_REGISTRY: registry.url,
    BOT_CHANNEL_STORE_DIR: storeDir,
  };
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, ['--import', 'tsx', CLI, ...args], { cwd: ROOT, env, timeout: 60_000 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? 1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}

test('the CLI installs a pinned package with no host running, lists it, and removes it', async () => {
  const installed = await cli('install', 'bot-channel-cli@1.0.0', '--integrity', integrity, '--as', 'ops');
  assert.equal(installed.code, 0, installed.stderr);
  assert.match(installed.stdout, /installed bot-channel-cli@1\.0\.0 \(unsigned, sha512-/);
  assert.ok(existsSync(path.join(storeDir, 'bot-channel-cli', 'current', 'node_modules', 'bot-channel-cli', 'dist', 'index.channel.js')));
  const [row] = await database.db('channel_packages').select('name', 'integrity', 'installed_by');
  assert.deepEqual(row, { name: 'bot-channel-cli', integrity, installed_by: 'ops' });
  const listed = await cli('list');
  assert.match(listed.stdout, /^bot-channel-cli@1\.0\.0 {2}unsigned/m);
  const removed = await cli('remove', 'bot-channel-cli');
  assert.equal(removed.code, 0, removed.stderr);
  assert.equal(await database.db('channel_packages').count('* as n').first().then((found) => Number(found?.n)), 0);
  assert.equal(existsSync(path.join(storeDir, 'bot-channel-cli', 'current')), false);
});

test('the CLI refuses what the host would, with the code, and exits non-zero', async () => {
  const wrongPin = await cli('install', 'bot-channel-cli@1.0.0', '--integrity', `sha512-${'A'.repeat(86)}==`);
  assert.equal(wrongPin.code, 1);
  assert.match(wrongPin.stderr, /^BOT_ERR_CHANNEL_PACKAGE_INTEGRITY_MISMATCH: /m);
  const usage = await cli('frobnicate');
  assert.equal(usage.code, 2);
  assert.match(usage.stderr, /usage: npm run channel/);
});
