import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { PostgresAccount } from './postgres-account.ts';

/**
 * The first folder above `target` (from `/` down, `target` itself left out: the host sets the
 * modes of its own folders) that `account` may not enter, judged by owner, group and mode bits;
 * undefined when the way is open. Folders not made yet end the walk: the host makes them with
 * modes the account can pass.
 *
 * The host runs as root, so a failed `access()` would not tell; asking the mode bits answers
 * for the account before any of its processes is started and dies on EACCES.
 */
export async function findUnreachableDir(target: string, account: PostgresAccount): Promise<string | undefined> {
  const absolute = path.resolve(target);
  const parts = absolute.split(path.sep).filter(Boolean);
  for (let depth = 0; depth < parts.length; depth += 1) {
    const dir = path.join(path.sep, ...parts.slice(0, depth));
    const info = await stat(dir).catch(() => undefined);
    if (!info?.isDirectory()) return undefined;
    if (!mayEnter(info, account)) return dir;
  }
  return undefined;
}

function mayEnter(info: { uid: number; gid: number; mode: number }, account: PostgresAccount): boolean {
  if (info.uid === account.uid) return (info.mode & 0o100) !== 0;
  if (info.gid === account.gid) return (info.mode & 0o010) !== 0;
  return (info.mode & 0o001) !== 0;
}
