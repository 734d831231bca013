import type { E2eOptions } from './e2e.ts';
import type { PhaseResult } from './e2e-phase.ts';
import type { StageMedians } from './e2e-stages.ts';
import { formatMs, formatRate, median, printTable } from './measure.ts';

/** One round of the e2e benchmark: the fixed load, then saturation. */
export interface E2eRound {
  fixed: PhaseResult;
  flood: PhaseResult;
}

const P50_TARGET_MS = 20;
const P99_TARGET_MS = 100;
const SATURATION_TARGET = 1_000;

const STAGES: [keyof StageMedians, string][] = [
  ['commitAndAck', 'received → 200 at the sender'],
  ['pickupAndLookups', 'received → run started'],
  ['runToSend', 'run started → send recorded'],
  ['sendToPlatform', 'send recorded → at the platform'],
  ['platformToMarked', 'at the platform → answer back'],
  ['markedToFinished', 'answer back → run finished'],
];

const CPU_ROWS = { host: 'host', runners: '  of which runners', postgres: 'postgres backends', platform: 'platform', load: 'load' } as const;

export function printE2eRound(round: E2eRound, index: number, options: E2eOptions): void {
  const phases: [string, PhaseResult][] = [[`${options.rate}/s`, round.fixed], ['saturation', round.flood]];
  printTable(`Round ${index + 1}`, [
    ['load', 'acked', 'sent/s', 'acks/s', 'replies/s under load', 'e2e msg/s', 'p50', 'p99', 'missing', 'dup', 'failed', 'writes/msg'],
    ...phases.map(([label, result]) => [
      label,
      String(result.acked),
      label === 'saturation' ? '-' : formatRate(result.sendRate),
      formatRate(result.ackRate),
      formatRate(result.replyRateUnderLoad),
      formatRate(result.endToEndRate),
      formatMs(result.p50Ms),
      formatMs(result.p99Ms),
      String(result.missing),
      String(result.duplicates),
      String(result.failed),
      result.writesPerMessage.toFixed(1),
    ]),
  ]);
  printTable('Where the time goes (medians)', [
    ['stage', ...phases.map(([label]) => label)],
    ...STAGES.map(([key, label]) => [label, ...phases.map(([, result]) => formatMs(result.stages[key]))]),
  ]);
  printTable('CPU time per message (all threads; the machine has 2 cores)', [
    ['process', ...phases.map(([label]) => label)],
    ...(['host', 'runners', 'postgres', 'platform', 'load'] as const).map((key) => [CPU_ROWS[key], ...phases.map(([, result]) => formatMs(result.cpuPerMessage[key]))]),
  ]);
  for (const [label, result] of phases) {
    if (result.failed > 0) console.warn(`  ${label}: webhooks not acknowledged: ${JSON.stringify(result.failures)}`);
    if (result.missing > 0 || result.duplicates > 0) console.warn(`  ${label}: ${result.missing} acknowledged messages got no reply, ${result.duplicates} replies came twice`);
    for (const detail of result.missingDetails) console.warn(`    ${detail}`);
  }
}

export function printE2eSummary(rounds: E2eRound[], options: E2eOptions): void {
  const medianOf = (pick: (round: E2eRound) => number) => median(rounds.map(pick));
  const p50 = medianOf((round) => round.fixed.p50Ms);
  const p99 = medianOf((round) => round.fixed.p99Ms);
  const sustained = medianOf((round) => round.flood.replyRateUnderLoad);
  console.log(`\nMedians of ${rounds.length} round(s)`);
  console.log(`  at ${options.rate} messages/s: ack → platform p50 ${formatMs(p50)} (target < ${P50_TARGET_MS} ms), p99 ${formatMs(p99)} (target < ${P99_TARGET_MS} ms), ${formatRate(medianOf((round) => round.fixed.ackRate))} acks/s`);
  console.log(
    `  saturation: ${formatRate(sustained)} replies/s at the platform under load (target >= ${formatRate(SATURATION_TARGET)}), ` +
      `${formatRate(medianOf((round) => round.flood.ackRate))} acks/s, ${formatRate(medianOf((round) => round.flood.endToEndRate))} messages/s from first send to last reply`,
  );
  const met = p50 < P50_TARGET_MS && p99 < P99_TARGET_MS && sustained >= SATURATION_TARGET;
  const lost = rounds.some((round) => round.fixed.missing + round.flood.missing + round.fixed.duplicates + round.flood.duplicates > 0);
  console.log(lost ? 'a reply was missing or duplicated: see above' : 'every acknowledged message got exactly one reply');
  console.log(met ? 'targets met' : 'targets NOT met');
}

/** The host's warnings and errors during the run, by message, so a failure in the pipeline is seen. */
export function printHostProblems(output: string): void {
  const counts = new Map<string, number>();
  for (const line of output.split('\n')) {
    const entry = parseLogLine(line);
    if (!entry || (entry.level ?? 0) < 40) continue;
    // The error's own words tell apart failures that share a code (which limit a plugin hit).
    const detail = [entry.error, entry.cause].filter(Boolean).join(' ← ').slice(0, 240);
    const message = `${entry.msg}${entry.code ? ` (${entry.code}${detail ? `: ${detail}` : ''})` : ''}`;
    counts.set(message, (counts.get(message) ?? 0) + 1);
  }
  if (counts.size === 0) return console.log('the host logged no warning or error');
  console.warn('the host logged:');
  for (const [message, count] of counts) console.warn(`  ${count} × ${message}`);
}

function parseLogLine(line: string): { level?: number; msg?: string; code?: string; error?: string; cause?: string } | undefined {
  if (!line.startsWith('{')) return undefined;
  try {
    return JSON.parse(line) as { level?: number; msg?: string; code?: string; error?: string; cause?: string };
  } catch {
    return undefined; // the last line may still be partial
  }
}
