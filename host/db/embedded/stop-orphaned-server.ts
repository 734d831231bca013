import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from 'pino';

/**
 * A host killed with SIGKILL leaves its Postgres child running on the data directory; ask that
 * server to shut down (smart then fast) so this start can own the cluster.
 */
export async function stopOrphanedServer(dataDir: string, logger?: Pick<Logger, 'warn'>): Promise<void> {
  const pidFile = path.join(dataDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return;
  const pid = Number((await readFile(pidFile, 'utf8')).split('\n')[0]);
  if (!Number.isInteger(pid) || pid <= 0 || !isAlive(pid) || !(await isPostgresOn(pid, dataDir))) return;
  logger?.warn({ pid }, 'stopping an orphaned embedded postgres left by an earlier run');
  process.kill(pid, 'SIGINT');
  for (let waited = 0; waited < 30_000 && isAlive(pid); waited += 100) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The pid file may be stale and its pid reused by an unrelated process: never signal that one. */
async function isPostgresOn(pid: number, dataDir: string): Promise<boolean> {
  try {
    const commandLine = (await readFile(`/proc/${pid}/cmdline`, 'utf8')).split('\0');
    return path.basename(commandLine[0] ?? '') === 'postgres' && commandLine.includes(dataDir);
  } catch {
    return false; // no /proc (not Linux) or the process is gone: leave it alone
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
