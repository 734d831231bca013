import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { startEmbeddedPostgres } from '../../../host/db/embedded-postgres.ts';
import { isAppError } from '../../../host/errors/app-error.ts';

// Clusters of this file's own, in a folder the cluster's account may enter when tests run as root.
const root = await mkdtemp(path.join(tmpdir(), 'bot-embedded-files-'));
await chmod(root, 0o755);
after(() => rm(root, { recursive: true, force: true }));

// As root the cluster's account (its group) may pass through the folder to its data, no more.
const PRIVATE_DIR_MODE = process.getuid?.() === 0 ? 0o710 : 0o700;
const modeOf = async (file: string) => (await stat(file)).mode & 0o7777;

/** What a failed start might leave in the system's temporary folder: embedded-postgres's password copies. */
const passwordCopies = async () => (await readdir(tmpdir())).filter((name) => name.startsWith('pg-password-'));

test('both passwords are 0600 in a 0700 folder from the first start', async () => {
  const dir = path.join(root, 'fresh');
  const server = await startEmbeddedPostgres({ dir, port: 0, persistent: false });
  await server.stop();
  assert.equal(await modeOf(dir), PRIVATE_DIR_MODE);
  assert.equal(await modeOf(path.join(dir, 'password')), 0o600);
  assert.equal(await modeOf(path.join(dir, 'app-password')), 0o600);
  assert.equal((await stat(path.join(dir, 'password'))).uid, process.getuid?.(), 'initdb (run as the cluster account under root) gave the password file back');
});

test('a folder and password files left looser by an older version are tightened on start', async () => {
  const dir = path.join(root, 'loose');
  const first = await startEmbeddedPostgres({ dir, port: 0 });
  await first.stop();
  await chmod(dir, 0o755);
  await chmod(path.join(dir, 'password'), 0o644);
  await chmod(path.join(dir, 'app-password'), 0o666);

  const second = await startEmbeddedPostgres({ dir, port: 0, persistent: false });
  await second.stop();
  assert.equal(await modeOf(dir), PRIVATE_DIR_MODE);
  assert.equal(await modeOf(path.join(dir, 'password')), 0o600);
  assert.equal(await modeOf(path.join(dir, 'app-password')), 0o600);
});

test('a start whose initdb fails leaves no password file outside the data folder', async () => {
  const dir = path.join(root, 'failing');
  // initdb refuses a data folder that is not empty.
  await mkdir(path.join(dir, 'data'), { recursive: true });
  await writeFile(path.join(dir, 'data', 'stray'), 'not a cluster');
  const before = await passwordCopies();

  await assert.rejects(startEmbeddedPostgres({ dir, port: 0 }), (error: unknown) => {
    assert.ok(isAppError(error), String(error));
    assert.equal(error.code, 'BOT_ERR_DB_UNAVAILABLE');
    assert.match(error.message, /initdb could not create/);
    return true;
  });
  assert.deepEqual((await passwordCopies()).filter((name) => !before.includes(name)), []);
  assert.deepEqual((await readdir(dir)).sort(), ['app-password', 'data', 'password']);
  assert.equal(await modeOf(path.join(dir, 'password')), 0o600);
  assert.equal(await modeOf(path.join(dir, 'app-password')), 0o600);
});

test('a start killed while initdb runs leaves no copy of a password in the temporary folder', async () => {
  const dir = path.join(root, 'killed');
  // The child's own temporary folder: whatever it writes there is its own.
  const childTmp = await mkdtemp(path.join(root, 'tmp-'));
  const script = `import(${JSON.stringify(new URL('../../../host/db/embedded-postgres.ts', import.meta.url).href)})
    .then((module) => module.startEmbeddedPostgres({ dir: ${JSON.stringify(dir)}, port: 0 }))`;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    env: { ...process.env, TMPDIR: childTmp },
    stdio: 'ignore',
  });
  const initdb = await waitForProcess(`--pgdata=${path.join(dir, 'data')}`, 30_000);
  const exited = once(child, 'exit');
  child.kill('SIGKILL');
  await exited;
  await waitUntilGone(initdb, 30_000); // initdb, orphaned, runs to its end by itself

  // tsx keeps its compile cache there (tsx-<uid>); nothing else may be.
  assert.deepEqual((await readdir(childTmp)).filter((name) => !name.startsWith('tsx-')), []);
  // host.lock names the killed start; the next start takes it over (see data-dir-lock.test.ts).
  assert.deepEqual((await readdir(dir)).filter((name) => name !== 'data' && name !== 'host.lock').sort(), ['app-password', 'password']);
  assert.equal(await modeOf(path.join(dir, 'password')), 0o600);
});

/** The pid of a running process whose command line holds `argument`, looked for in /proc. */
async function waitForProcess(argument: string, timeoutMs: number): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    for (const entry of await readdir('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      const commandLine = await readFile(`/proc/${entry}/cmdline`, 'utf8').catch(() => '');
      if (commandLine.split('\0').includes(argument)) return Number(entry);
    }
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  throw new Error(`no process with ${argument} within ${timeoutMs} ms`);
}

async function waitUntilGone(pid: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => undefined);
    if (stat === undefined || /\)\s+[ZX]\s/.test(stat)) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`process ${pid} still runs after ${timeoutMs} ms`);
}
