import { readFileSync } from 'node:fs';
import type { Knex } from 'knex';
import { descendantsAndSelf } from '../../host/channels/runner/process-tree-usage.ts';

/** Linux clock ticks per second (`getconf CLK_TCK`), 100 on every common kernel. */
const TICKS_PER_SECOND = 100;

/** CPU time (ms, user + system, all threads) one process has used so far; 0 once it is gone or off Linux. */
export function processCpuMs(pid: number): number {
  const fields = statFields(pid);
  return fields ? ticksToMs(fields, 11, 12) : 0;
}

/**
 * CPU time (ms) a local PostgreSQL server has used so far, `db`'s connection's included: its live
 * processes (backends, WAL writer, checkpointer, …) and the backends that have exited, which
 * the postmaster reaped (their time is its children's time). Unlike a sum over the backends
 * connected now, two readings differ by exactly what the server did in between, whatever
 * connections a pool opened or closed meanwhile. 0 for a server on another machine.
 */
export async function postgresServerCpuMs(db: Knex): Promise<number> {
  const { rows } = await db.raw<{ rows: { pid: number }[] }>('SELECT pg_backend_pid() AS pid');
  const postmaster = parentOf(rows[0]!.pid);
  const fields = postmaster === undefined ? undefined : statFields(postmaster);
  if (postmaster === undefined || !fields) return 0;
  const live = descendantsAndSelf(postmaster).reduce((sum, pid) => sum + processCpuMs(pid), 0);
  // cutime and cstime, the 16th and 17th fields: children it has waited for.
  return live + ticksToMs(fields, 13, 14);
}

function parentOf(pid: number): number | undefined {
  const fields = statFields(pid);
  return fields ? Number(fields[1]) : undefined;
}

/** /proc/<pid>/stat after the parenthesised command name: the state is [0], the parent [1], utime [11]. */
function statFields(pid: number): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

function ticksToMs(fields: string[], user: number, system: number): number {
  return ((Number(fields[user]) + Number(fields[system])) * 1000) / TICKS_PER_SECOND;
}

/**
 * CPU time (ms) the PostgreSQL backends connected to `db`'s database have used so far, this
 * connection's aside. A backend that disconnects between two readings takes its time with it:
 * pools that keep their connections are measured well, short-lived connections are not.
 */
export async function postgresBackendsCpuMs(db: Knex): Promise<number> {
  const { rows } = await db.raw<{ rows: { pid: number }[] }>('SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()');
  return rows.reduce((sum, row) => sum + processCpuMs(row.pid), 0);
}
