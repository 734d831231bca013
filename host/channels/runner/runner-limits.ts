/**
 * The host-side watchdog's verdict on one look at a runner: past its memory limit (the whole
 * process tree's RSS, so memory outside the JS heap counts), or burning CPU with no call in
 * flight for `idleCpuStrikes` looks in a row. Pure, so its rules are tested without a process.
 */
import type { ProcessTreeUsage } from './process-tree-usage.ts';
import type { WireBudgetRates } from './wire-budget.ts';

export interface RunnerLimits {
  maxRssMb: number;
  /** Share of one core (percent) a runner may burn between calls. */
  maxIdleCpuPercent: number;
  /** Consecutive looks over `maxIdleCpuPercent` before the runner is stopped. */
  idleCpuStrikes: number;
  intervalMs: number;
  /** How much of the host's thread its wire may take (wire-budget.ts); the default budget when absent. */
  wireBudget?: WireBudgetRates;
}

export interface WatchState {
  lastCpuMs: number | undefined;
  strikes: number;
}

/** A reason to stop the runner, or undefined; updates `state` for the next look. */
export function judgeUsage(usage: ProcessTreeUsage, idleThroughout: boolean, state: WatchState, limits: RunnerLimits): string | undefined {
  const rssMb = usage.rssBytes / 1024 / 1024;
  const cpuDeltaMs = state.lastCpuMs === undefined ? 0 : usage.cpuMs - state.lastCpuMs;
  state.lastCpuMs = usage.cpuMs;
  if (rssMb > limits.maxRssMb) return `memory limit: ${Math.round(rssMb)} MB resident > ${limits.maxRssMb} MB`;
  const percent = (cpuDeltaMs / limits.intervalMs) * 100;
  state.strikes = idleThroughout && percent > limits.maxIdleCpuPercent ? state.strikes + 1 : 0;
  if (state.strikes >= limits.idleCpuStrikes) {
    return `CPU between calls: ${Math.round(percent)}% of a core with no call in flight for ${state.strikes} checks`;
  }
  return undefined;
}
