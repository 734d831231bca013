import { chmod, chown, mkdir, stat } from 'node:fs/promises';
import path from 'node:path';
import type { PostgresAccount } from './postgres-account.ts';

/**
 * Makes `dir` a folder only the host can enter: mode 0700, created so from the start (the umask
 * can only take bits away), and tightened when an older version or a person left it looser.
 * Plugins run as another user and must not read the passwords and secrets kept in it.
 *
 * As root the embedded cluster runs as its own account, which has to pass through this folder to
 * reach its data: the folder then belongs to that account's group with mode 0710 (enter, but
 * neither list nor read); every other user still gets nothing.
 */
export async function ensurePrivateDir(dir: string, account?: PostgresAccount): Promise<void> {
  const mode = account ? 0o710 : 0o700;
  // Parents keep the usual mode: only the folder itself holds secrets.
  await mkdir(path.dirname(dir), { recursive: true });
  await mkdir(dir, { mode }).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'EEXIST') throw error;
  });
  const current = await stat(dir);
  // Mode before group: the group never gets more than it should, not even for a moment.
  if ((current.mode & 0o7777) !== mode) await chmod(dir, mode);
  if (account && current.gid !== account.gid) await chown(dir, current.uid, account.gid);
}
