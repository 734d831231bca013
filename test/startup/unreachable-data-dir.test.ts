import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { startHostProcess } from '../support/host-process.ts';

// As root the cluster runs as the `postgres` account, which cannot pass a 0700 folder owned by
// root (any clone or data folder under /root): the start used to die in initdb with a bare EACCES.
const parent = await mkdtemp(path.join(tmpdir(), 'bot-closed-'));
after(() => rm(parent, { recursive: true, force: true }));

const passwordCopies = async () => (await readdir(tmpdir())).filter((name) => name.startsWith('pg-password-'));

test('as root, a data directory under a 0700 parent is refused up front with one line saying what to do', { skip: process.getuid?.() !== 0 && 'only root runs the cluster as another account' }, async () => {
  assert.equal((await stat(parent)).mode & 0o777, 0o700);
  const before = await passwordCopies();
  const dataDir = path.join(parent, 'data');

  const refused = await startHostProcess({ BOT_DATA_DIR: dataDir }, 90_000, false).then(
    async (host) => assert.fail(`the host started:\n${host.output()}${String(await host.stop())}`),
    (error: Error) => error.message,
  );
  assert.match(refused, /npm start exited with [1-9]/);
  assert.match(refused, new RegExp(`bot host failed to start: BOT_ERR_DB_PATH_UNREACHABLE: the postgres account cannot reach ${dataDir}/postgres: ${parent} does not let it through; .*chmod o\\+x ${parent}`));
  assert.doesNotMatch(refused, /EACCES|^\s+at /m);
  assert.ok(!existsSync(path.join(dataDir, 'postgres', 'password')), 'a password file was written');
  assert.deepEqual((await passwordCopies()).filter((name) => !before.includes(name)), []);
});
