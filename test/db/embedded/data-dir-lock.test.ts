import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { acquireDataDirLock } from '../../../host/db/embedded/data-dir-lock.ts';
import { isAppError } from '../../../host/errors/app-error.ts';

const root = await mkdtemp(path.join(tmpdir(), 'bot-lock-'));
after(() => rm(root, { recursive: true, force: true }));

/** The pid of a process that has exited and been reaped: nobody owns it now. */
function deadPid(): number {
  return Number(spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout);
}

test('a lock held by a running process refuses a second claim, naming that pid', async () => {
  const file = path.join(root, 'held.lock');
  const lock = await acquireDataDirLock(file, '/data');
  await assert.rejects(acquireDataDirLock(file, '/data'), (error: unknown) => {
    assert.ok(isAppError(error));
    assert.equal(error.code, 'BOT_ERR_DB_DATA_DIR_IN_USE');
    assert.match(error.message, new RegExp(`/data is in use by another host \\(pid ${process.pid}\\)`));
    return true;
  });
  await lock.release();
  assert.ok(!existsSync(file), 'release removes the file');
});

const stale = [
  { name: 'its owner has exited', owner: () => ({ pid: deadPid(), startTime: '1' }) },
  { name: 'its pid now belongs to another process (recycled)', owner: () => ({ pid: process.pid, startTime: '1' }) },
  { name: 'its owner died before writing it', owner: () => undefined },
];
for (const { name, owner } of stale) {
  test(`a lock is taken over when ${name}`, async () => {
    const file = path.join(root, `${name.replaceAll(/\W+/g, '-')}.lock`);
    const previous = owner();
    await writeFile(file, previous ? JSON.stringify(previous) : '');
    const lock = await acquireDataDirLock(file, '/data');
    assert.equal((JSON.parse(await readFile(file, 'utf8')) as { pid: number }).pid, process.pid);
    await lock.release();
  });
}

test('releasing leaves alone a lock another process has since taken over', async () => {
  const file = path.join(root, 'taken-over.lock');
  const lock = await acquireDataDirLock(file, '/data');
  await writeFile(file, JSON.stringify({ pid: 1, startTime: '1' }));
  await lock.release();
  assert.ok(existsSync(file));
});
