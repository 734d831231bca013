import { readFile, unlink, writeFile } from 'node:fs/promises';
import { AppError } from '../../errors/app-error.ts';
import { processStartTime } from './process-start-time.ts';

export interface DataDirLock {
  /** Removes the lock file, if it is still this process's. */
  release(): Promise<void>;
}

interface Owner {
  pid: number;
  startTime: string;
}

/**
 * Claims `file` for this process: created with O_EXCL, so of two starts racing only one wins,
 * holding its pid and start time. A lock whose owner is gone (killed, crashed, or its pid now
 * belongs to another process) is taken over; one whose owner runs refuses the start, naming it,
 * before anything on the data directory is touched.
 */
export async function acquireDataDirLock(file: string, what: string): Promise<DataDirLock> {
  const self: Owner = { pid: process.pid, startTime: (await processStartTime(process.pid)) ?? '' };
  for (let attempt = 0; attempt < 3; attempt += 1) {
    if (await tryCreate(file, self)) return { release: () => releaseIfOwned(file, self) };
    const owner = await readOwner(file);
    if (owner && (await isRunning(owner))) {
      throw new AppError('BOT_ERR_DB_DATA_DIR_IN_USE', `${what} is in use by another host (pid ${owner.pid}); stop it first or start this one with another BOT_DATA_DIR`);
    }
    await unlink(file).catch(ignoreMissing); // stale: its owner is gone
  }
  throw new AppError('BOT_ERR_DB_DATA_DIR_IN_USE', `${what} is being claimed by another start at the same moment; try again`);
}

async function tryCreate(file: string, owner: Owner): Promise<boolean> {
  try {
    await writeFile(file, `${JSON.stringify(owner)}\n`, { flag: 'wx', mode: 0o644 });
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

/** Undefined for a file cut short (its writer died between creating and writing it): stale. */
async function readOwner(file: string): Promise<Owner | undefined> {
  try {
    const parsed = JSON.parse(await readFile(file, 'utf8')) as Partial<Owner>;
    return typeof parsed.pid === 'number' && typeof parsed.startTime === 'string' ? { pid: parsed.pid, startTime: parsed.startTime } : undefined;
  } catch {
    return undefined;
  }
}

async function isRunning(owner: Owner): Promise<boolean> {
  // Without /proc (not Linux) no start time was recorded: whether the pid lives is all there is.
  if (owner.startTime === '') return isAlive(owner.pid);
  return (await processStartTime(owner.pid)) === owner.startTime;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function releaseIfOwned(file: string, self: Owner): Promise<void> {
  const owner = await readOwner(file);
  if (owner?.pid === self.pid && owner.startTime === self.startTime) await unlink(file).catch(ignoreMissing);
}

function ignoreMissing(error: NodeJS.ErrnoException): void {
  if (error.code !== 'ENOENT') throw error;
}
