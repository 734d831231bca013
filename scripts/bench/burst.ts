/**
 * `npm run bench -- burst [--rounds 5] [--burst 20] [--subscribers 10] [--each 5]
 * [--concurrency <BOT_DISPATCH_CONCURRENCY>]`: users typing quickly. The host runs as `npm start`
 * in a child process with the greeting workflow on a sample source whose replies go to a fake
 * platform in this process; a load process posts signed webhooks ("my name is <name>"), each
 * subscriber's back to back (the next as soon as the previous got its 200). Per round: one
 * subscriber posts `--burst` messages, then `--subscribers` subscribers post `--each` messages
 * each, all at once. Prints the time from the last post's 200 to the last reply, post → reply
 * p50 and p99, whether each subscriber's replies arrived in order and exactly once, and the
 * host's claims by trigger (from /metrics: a `poll` or `retry` claim means a message waited for
 * a timer); then the medians with their min–max. Targets (issue 13, on a quiet machine): the
 * last reply ≤ 200 ms after the last post; p99 ≤ 100 ms.
 */
import { availableParallelism, loadavg } from 'node:os';
import { parseArgs, type ParseArgsOptionsConfig } from 'node:util';
import { printBurstRound, printBurstSummary, type BurstRound } from './burst-report.ts';
import { runBurstScenario, type BurstScenario, type ScenarioContext } from './burst-scenario.ts';
import { openBenchDatabase } from './bench-database.ts';
import { startE2eHost, type E2eHost } from './e2e-host.ts';
import { BenchPlatform } from './e2e-platform.ts';
import { printHostProblems } from './e2e-report.ts';

/** The options that count something, with their defaults. */
const COUNTS = { rounds: 5, burst: 20, subscribers: 10, each: 5 };

export type BurstOptions = Record<keyof typeof COUNTS, number> & {
  /** BOT_DISPATCH_CONCURRENCY for the host; its own default when undefined. */
  concurrency: number | undefined;
};

const METRICS_TOKEN = 'burst-benchmark-metrics-token';

export async function runBurstBenchmark(): Promise<void> {
  const options = readOptions(process.argv.slice(3));
  const bench = await openBenchDatabase({ poolMax: 2 });
  const platform = await BenchPlatform.start();
  let host: E2eHost | undefined;
  try {
    // Production defaults (`info` logs: a line per request), but for a metrics token and the concurrency asked for.
    const concurrency: Record<string, string> = options.concurrency === undefined ? {} : { BOT_DISPATCH_CONCURRENCY: String(options.concurrency) };
    host = await startE2eHost(bench.url, platform.url, { BOT_METRICS_TOKEN: METRICS_TOKEN, ...concurrency });
    console.log(`burst benchmark on ${bench.server}: host as \`npm start\` (child process), ${options.rounds} round(s), each subscriber's messages back to back; ${machineLoad()}`);
    const context: ScenarioContext = { db: bench.db, platform, hostUrl: host.process.url, metricsToken: METRICS_TOKEN, webhookUrl: host.webhookUrl, webhookSecret: host.webhookSecret };
    await measureRounds(context, options);
    console.log(`at the end: ${machineLoad()}`);
    printHostProblems(host.process.output());
  } finally {
    await host?.close();
    await platform.close();
    await bench.close();
  }
}

/** A warm-up round, then every scenario once per round, printing each round and then the medians. */
async function measureRounds(context: ScenarioContext, options: BurstOptions): Promise<void> {
  const scenarios: BurstScenario[] = [
    { label: `1 subscriber × ${options.burst}`, subscribers: 1, messagesEach: options.burst },
    { label: `${options.subscribers} subscribers × ${options.each}`, subscribers: options.subscribers, messagesEach: options.each },
  ];
  // Each scenario once, untimed: subscribers, threads and memory rows exist, and JIT, pools,
  // the sandbox and the hand-off path are warm, before anything is measured.
  for (const [place, scenario] of scenarios.entries()) await runBurstScenario(context, scenario, `w${'ab'[place]}-`);
  const rounds: BurstRound[] = [];
  for (let index = 0; index < options.rounds; index += 1) {
    const round: BurstRound = [];
    for (const [place, scenario] of scenarios.entries()) round.push(await runBurstScenario(context, scenario, `r${index}${'ab'[place]}-`));
    rounds.push(round);
    printBurstRound(round, index, scenarios);
  }
  printBurstSummary(rounds, scenarios);
}

/** Figures mean little on a busy machine: the load average says how busy it was. */
function machineLoad(): string {
  return `${availableParallelism()} cores, load average ${loadavg()[0]!.toFixed(2)} (1 min)`;
}

function readOptions(args: string[]): BurstOptions {
  const config: ParseArgsOptionsConfig = { concurrency: { type: 'string' } };
  for (const [name, fallback] of Object.entries(COUNTS)) config[name] = { type: 'string', default: String(fallback) };
  const { values } = parseArgs({ args, options: config });
  const counts = Object.fromEntries(Object.keys(COUNTS).map((name) => [name, wholeNumber(name, values[name])]));
  return { ...(counts as Record<keyof typeof COUNTS, number>), concurrency: values.concurrency === undefined ? undefined : wholeNumber('concurrency', values.concurrency) };
}

function wholeNumber(name: string, text: unknown): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} must be a whole number >= 1, got "${String(text)}"`);
  return value;
}
