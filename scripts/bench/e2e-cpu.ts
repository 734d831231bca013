import { readFile } from 'node:fs/promises';
import type { Knex } from 'knex';
import { processTreeUsage } from '../../host/channels/runner/process-tree-usage.ts';

/** CPU time (user + system, all threads) spent by each part of the pipeline, in ms. */
export interface CpuTimes {
  /** The host process with its channel runners. */
  host: number;
  /** The runners alone: the host's descendants other than itself (bubblewrap and the sandboxed Node). */
  runners: number;
  postgres: number;
  /** This process: the fake platform. */
  platform: number;
}

/** Linux clock ticks per second (`getconf CLK_TCK`), 100 on every common kernel. */
const TICKS_PER_SECOND = 100;

/**
 * Reads the CPU time used so far by the host process and its channel runners, by the PostgreSQL backends connected to
 * the benchmark's database, and by this process, from /proc (Linux; zeros elsewhere). Backends
 * that disconnect between two readings take their time with them, so the host's pools (which
 * keep their connections) are measured well and short-lived connections are not.
 */
export async function readCpuTimes(db: Knex, hostPid: number): Promise<CpuTimes> {
  const { rows } = await db.raw<{ rows: { pid: number }[] }>('SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()');
  const backends = await Promise.all(rows.map((row) => cpuMsOf(row.pid)));
  const usage = process.cpuUsage();
  // The host with its children: each channel's runner process does the plugin's share of the work.
  const host = processTreeUsage(hostPid)?.cpuMs ?? 0;
  const hostAlone = await cpuMsOf(hostPid);
  return { host, runners: host - hostAlone, postgres: backends.reduce((sum, ms) => sum + ms, 0), platform: (usage.user + usage.system) / 1000 };
}

/** The difference of two readings, backends gone or new in between aside. */
export function cpuSince(before: CpuTimes, after: CpuTimes): CpuTimes {
  return { host: after.host - before.host, runners: after.runners - before.runners, postgres: after.postgres - before.postgres, platform: after.platform - before.platform };
}

async function cpuMsOf(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => undefined);
  if (!stat) return 0;
  // Fields after the parenthesised command name; utime and stime are the 14th and 15th fields.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
}
