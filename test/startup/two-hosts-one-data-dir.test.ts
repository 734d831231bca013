import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { startHostProcess } from '../support/host-process.ts';

// A second `npm start` on the same BOT_DATA_DIR (another terminal, another port) once took the
// live host's PostgreSQL for an orphan and stopped it beneath it.
const dataDir = await mkdtemp(path.join(tmpdir(), 'bot-two-hosts-'));
after(() => rm(dataDir, { recursive: true, force: true }));

test('a second start on a data directory in use exits non-zero naming the first host, which keeps serving', async () => {
  // Once its channels are loaded: readiness then answers for the database alone.
  const first = await startHostProcess({ BOT_DATA_DIR: dataDir });
  try {
    const firstPid = Number(/"pid":(\d+)/.exec(first.output())?.[1]);
    const lock = JSON.parse(await readFile(path.join(dataDir, 'postgres', 'host.lock'), 'utf8')) as { pid: number };
    assert.equal(lock.pid, firstPid, 'the lock names the running host');

    const refused = await startHostProcess({ BOT_DATA_DIR: dataDir }, 90_000, false).then(
      async (second) => assert.fail(`the second host started:\n${second.output()}${String(await second.stop())}`),
      (error: Error) => error.message,
    );
    assert.match(refused, /npm start exited with [1-9]/);
    assert.match(refused, new RegExp(`BOT_ERR_DB_DATA_DIR_IN_USE: .* in use by another host \\(pid ${firstPid}\\)`));
    assert.doesNotMatch(refused, /orphaned embedded postgres/);
    assert.equal(refused.split('\n').filter((line) => line.includes('failed to start')).length, 1);
    assert.doesNotMatch(refused, /^\s+at /m, 'a refusal is one line, no stack');

    assert.equal((await fetch(`${first.url}/health/ready`)).status, 200, 'the first host still has its database');
  } finally {
    assert.equal(await first.stop('SIGTERM'), 0);
  }
});
