import type { Knex } from 'knex';
import { processTreeUsage } from '../../host/channels/runner/process-tree-usage.ts';
import { postgresBackendsCpuMs, processCpuMs } from './process-cpu.ts';

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

/**
 * Reads the CPU time used so far by the host process and its channel runners, by the PostgreSQL backends connected to
 * the benchmark's database, and by this process, from /proc (Linux; zeros elsewhere). Backends
 * that disconnect between two readings take their time with them, so the host's pools (which
 * keep their connections) are measured well and short-lived connections are not.
 */
export async function readCpuTimes(db: Knex, hostPid: number): Promise<CpuTimes> {
  const postgres = await postgresBackendsCpuMs(db);
  const usage = process.cpuUsage();
  // The host with its children: each channel's runner process does the plugin's share of the work.
  const host = processTreeUsage(hostPid)?.cpuMs ?? 0;
  return { host, runners: host - processCpuMs(hostPid), postgres, platform: (usage.user + usage.system) / 1000 };
}

/** The difference of two readings, backends gone or new in between aside. */
export function cpuSince(before: CpuTimes, after: CpuTimes): CpuTimes {
  return { host: after.host - before.host, runners: after.runners - before.runners, postgres: after.postgres - before.postgres, platform: after.platform - before.platform };
}
