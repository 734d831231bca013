import assert from 'node:assert/strict';
import { chmod, chown, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { findUnreachableDir } from '../../../host/db/embedded/find-unreachable-dir.ts';

// Judged from owner, group and mode bits, so it needs no second account: a made-up one will do.
const account = { uid: 54_321, gid: 54_321 };
const root = await mkdtemp(path.join(tmpdir(), 'bot-reach-'));
await chmod(root, 0o755);
after(() => rm(root, { recursive: true, force: true }));

async function folder(name: string, mode: number): Promise<string> {
  const dir = path.join(root, name);
  await mkdir(path.join(dir, 'inner'), { recursive: true });
  await chmod(dir, mode);
  return dir;
}

test('names the first folder on the way that lets the account through neither as other, group nor owner', async () => {
  const closed = await folder('closed', 0o700);
  assert.equal(await findUnreachableDir(path.join(closed, 'inner', 'bin', 'postgres'), account), closed);
});

test('a folder passable by others, or not made yet, leaves the way open', async () => {
  const open = await folder('open', 0o711);
  assert.equal(await findUnreachableDir(path.join(open, 'inner', 'not-yet', 'data'), account), undefined);
});

test('the group bits count for a folder of the account group, the owner bits for its own', { skip: process.getuid?.() !== 0 && 'chown needs root' }, async () => {
  const group = await folder('group', 0o710);
  await chown(group, 0, account.gid);
  assert.equal(await findUnreachableDir(path.join(group, 'inner'), account), undefined);
  const own = await folder('own', 0o100);
  await chown(own, account.uid, 0);
  assert.equal(await findUnreachableDir(path.join(own, 'inner'), account), undefined);
});
