import type { InstallOptions } from './install.ts';
import type { ChangeTiming } from './install-timing.ts';
import type { LoadRecord } from './install-load-plan.ts';
import { latencyPercentiles, median, printTable } from './measure.ts';

export type StepName = 'install' | 'upgrade' | 'rollback';

/** One timed package change with nothing else running. */
export interface StepResult extends ChangeTiming {
  from: string | undefined;
  to: string;
  /** Tarballs the registry served for it: 1 when fetched from the registry, 0 when the host had it. */
  downloads: number;
  /** Channel runners the host started for it, a trial's included. */
  runners: number;
}

/** The upgrade made while webhooks arrive at a fixed rate. */
export interface LoadedUpgrade extends ChangeTiming {
  from: string;
  to: string;
  runners: number;
  /** The load's run: from its first webhook to its stop, in s. */
  seconds: number;
  records: LoadRecord[];
  /** When the upgrade was requested, on the load's clock. */
  requestedAt: number;
}

export interface InstallRound {
  steps: Record<StepName, StepResult>;
  underLoad: LoadedUpgrade;
}

const STEPS: [StepName, string][] = [
  ['install', 'install, cold (registry)'],
  ['upgrade', 'upgrade, cold (registry)'],
  ['rollback', 'rollback, cached (database)'],
];
const FAILED_TARGET = 0;

export function printInstallRound(round: InstallRound, index: number): void {
  printTable(`Round ${index + 1}`, [
    ['change', 'versions', 'tarballs fetched', 'runners started', 'request → serving', 'request → answered'],
    ...STEPS.map(([step, label]) => {
      const result = round.steps[step];
      return [label, `${result.from ?? 'none'} → ${result.to}`, String(result.downloads), String(result.runners), ms(result.servingMs), ms(result.answeredMs)];
    }),
  ]);
  const load = loadFigures(round.underLoad);
  const upgrade = round.underLoad;
  console.log(
    `under load: upgrade ${upgrade.from} → ${upgrade.to} (${upgrade.runners} runners started) served after ${ms(upgrade.servingMs)}, answered after ${ms(upgrade.answeredMs)}; ` +
      `${load.sent} webhooks in ${upgrade.seconds.toFixed(1)} s (${(load.sent / upgrade.seconds).toFixed(0)}/s), ${load.ok} answered 200, ${load.failed} not ` +
      `(${formatCounts(load.failures)}); latency while it ran ${formatLatency(load.during)}, before and after it ${formatLatency(load.outside)}`,
  );
  if (load.failed > 0) console.warn(`  failed webhooks, sent at (ms from the upgrade request): ${load.failedAt.map((at) => Math.round(at)).join(', ')}`);
}

export function printInstallSummary(rounds: InstallRound[], options: InstallOptions): void {
  const spread = (values: number[]) => `${ms(median(values))} (${ms(Math.min(...values))}–${ms(Math.max(...values))})`;
  printTable(`Medians of ${rounds.length} round(s), (min–max)`, [
    ['change', 'request → serving', 'request → answered'],
    ...STEPS.map(([step, label]) => [label, spread(rounds.map((round) => round.steps[step].servingMs)), spread(rounds.map((round) => round.steps[step].answeredMs))]),
    ['upgrade under load', spread(rounds.map((round) => round.underLoad.servingMs)), spread(rounds.map((round) => round.underLoad.answeredMs))],
  ]);
  const loads = rounds.map((round) => loadFigures(round.underLoad));
  const failed = loads.reduce((sum, load) => sum + load.failed, 0);
  const sent = loads.reduce((sum, load) => sum + load.sent, 0);
  const failures = loads.reduce<Record<string, number>>((all, load) => addCounts(all, load.failures), {});
  console.log(`\nwebhooks at ${options.rate}/s during an upgrade, ${options.leadSeconds} s before the request to ${options.tailSeconds} s after its answer: ${failed} of ${sent} not answered 200 over ${rounds.length} round(s) (${formatCounts(failures)}; target ${FAILED_TARGET})`);
  console.log(`  latency while the upgrade ran: p99 ${spread(loads.map((load) => load.during.p99Ms))}, max ${spread(loads.map((load) => load.during.maxMs))}`);
  console.log(`  latency before and after it: p99 ${spread(loads.map((load) => load.outside.p99Ms))}, max ${spread(loads.map((load) => load.outside.maxMs))}`);
  console.log(failed <= FAILED_TARGET ? 'target met' : 'target NOT met');
}

interface Latency {
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

interface LoadFigures {
  sent: number;
  ok: number;
  failed: number;
  failures: Record<string, number>;
  /** Send times of the failed webhooks, in ms from the upgrade request. */
  failedAt: number[];
  /** Webhooks sent between the upgrade request and its answer. */
  during: Latency;
  /** The others: before the request, and after the answer. */
  outside: Latency;
}

function loadFigures(upgrade: LoadedUpgrade): LoadFigures {
  const failedRecords = upgrade.records.filter(([, , outcome]) => outcome !== 200);
  const isDuring = ([sentAt]: LoadRecord) => sentAt >= upgrade.requestedAt && sentAt <= upgrade.requestedAt + upgrade.answeredMs;
  return {
    sent: upgrade.records.length,
    ok: upgrade.records.length - failedRecords.length,
    failed: failedRecords.length,
    failures: failedRecords.reduce<Record<string, number>>((counts, [, , outcome]) => addCounts(counts, { [String(outcome)]: 1 }), {}),
    failedAt: failedRecords.map(([sentAt]) => sentAt - upgrade.requestedAt),
    during: latencyOf(upgrade.records.filter(isDuring)),
    outside: latencyOf(upgrade.records.filter((record) => !isDuring(record))),
  };
}

function latencyOf(records: LoadRecord[]): Latency {
  const latencies = records.map(([, latencyMs]) => latencyMs);
  return { ...latencyPercentiles(latencies), maxMs: latencies.length === 0 ? Number.NaN : Math.max(...latencies) };
}

const formatLatency = (latency: Latency) => `p50 ${ms(latency.p50Ms)}, p99 ${ms(latency.p99Ms)}, max ${ms(latency.maxMs)}`;

function addCounts(into: Record<string, number>, counts: Record<string, number>): Record<string, number> {
  for (const [reason, count] of Object.entries(counts)) into[reason] = (into[reason] ?? 0) + count;
  return into;
}

const ms = (value: number): string => `${Math.round(value).toLocaleString('en-US')} ms`;
const formatCounts = (counts: Record<string, number>) => Object.entries(counts).map(([reason, count]) => `${reason} ×${count}`).join(', ') || 'none';
