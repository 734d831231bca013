/**
 * `npm run bench -- e2e [--rate 200] [--seconds 10] [--flood-seconds 5] [--connections 64]
 * [--subscribers 500] [--rounds 1] [--concurrency <BOT_DISPATCH_CONCURRENCY>] [--cpu-prof <dir>]
 * [--history-seconds 10]`:
 * signed sample webhooks, one message each ("my name is <name>"), through the greeting workflow
 * (one `update_memory`, one `send_text_message`) to a local fake platform. The host runs as
 * `npm start` in a child process; the platform (in this process) and the load generator (another
 * process) each have their own event loop. Per round: a fixed offered load (`--rate` messages/s
 * for `--seconds`, paced) and saturation (`--connections` back-to-back senders for
 * `--flood-seconds`). Prints ack → platform latency (p50, p99), rates, and where the time goes.
 * `--cpu-prof` writes the host's V8 CPU profiles (its npm wrapper's too) into the folder.
 * Targets: p50 < 20 ms and p99 < 100 ms at 200 messages/s; >= 1,000 messages/s at saturation.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { openBenchDatabase } from './bench-database.ts';
import { startE2eHost, type E2eHost } from './e2e-host.ts';
import { runPhase, type PhaseContext, type PhaseResult } from './e2e-phase.ts';
import { BenchPlatform } from './e2e-platform.ts';
import { printE2eRound, printE2eSummary, printHostProblems, type E2eRound } from './e2e-report.ts';

export interface E2eOptions {
  rate: number;
  seconds: number;
  floodSeconds: number;
  connections: number;
  subscribers: number;
  rounds: number;
  concurrency: number | undefined;
  cpuProfileDir: string | undefined;
  /** Seconds of flood before measuring, then ANALYZE (0: measure a fresh database). */
  historySeconds: number;
}

export async function runE2eBenchmark(): Promise<void> {
  const options = readOptions(process.argv.slice(3));
  const bench = await openBenchDatabase({ poolMax: 2 });
  const platform = await BenchPlatform.start();
  let host: E2eHost | undefined;
  try {
    host = await startE2eHost(bench.url, platform.url, hostEnv(options));
    console.log(`e2e benchmark on ${bench.server}: host as \`npm start\` (child process), ${options.subscribers} subscribers, ${options.rounds} round(s)`);
    console.log(`  fixed load: ${options.rate} messages/s for ${options.seconds} s; saturation: ${options.connections} connections for ${options.floodSeconds} s`);
    const context: PhaseContext = { db: bench.db, platform, hostPid: host.pid };
    const base = { url: host.webhookUrl, secret: host.webhookSecret, subscribers: options.subscribers, connections: options.connections };
    // One message per subscriber first: subscribers, threads and memory rows exist, and JIT,
    // pools and the sandbox are warm, before anything is measured.
    await runPhase(context, { ...base, prefix: 'w', mode: 'paced', rate: options.rate, seconds: 0, count: options.subscribers });
    // Then some history, and statistics, as a deployment that has run a while has: the host's
    // prepared statements keep the plans they made first, and plans made on a database that is
    // minutes old (a few hundred rows, never analyzed) are not the ones production runs.
    if (options.historySeconds > 0) {
      await runPhase(context, { ...base, prefix: 'h', mode: 'flood', rate: 0, seconds: options.historySeconds });
      await bench.db.raw('ANALYZE');
    }
    const rounds: E2eRound[] = [];
    for (let index = 0; index < options.rounds; index += 1) {
      const fixed: PhaseResult = await runPhase(context, { ...base, prefix: `r${index}f`, mode: 'paced', rate: options.rate, seconds: options.seconds });
      const flood: PhaseResult = await runPhase(context, { ...base, prefix: `r${index}s`, mode: 'flood', rate: 0, seconds: options.floodSeconds });
      rounds.push({ fixed, flood });
      printE2eRound(rounds.at(-1)!, index, options);
    }
    printE2eSummary(rounds, options);
    printHostProblems(host.process.output());
  } finally {
    await host?.close();
    await platform.close();
    await bench.close();
  }
}

/** Production defaults (`info` logs: a line per request), but for what the options set. */
function hostEnv(options: E2eOptions): Record<string, string> {
  return {
    ...(options.concurrency === undefined ? {} : { BOT_DISPATCH_CONCURRENCY: String(options.concurrency) }),
    ...(options.cpuProfileDir === undefined ? {} : { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${path.resolve(options.cpuProfileDir)}` }),
  };
}

function readOptions(args: string[]): E2eOptions {
  const { values } = parseArgs({
    args,
    options: {
      rate: { type: 'string', default: '200' },
      seconds: { type: 'string', default: '10' },
      'flood-seconds': { type: 'string', default: '5' },
      connections: { type: 'string', default: '64' },
      subscribers: { type: 'string', default: '500' },
      rounds: { type: 'string', default: '1' },
      concurrency: { type: 'string' },
      'cpu-prof': { type: 'string' },
      'history-seconds': { type: 'string', default: '10' },
    },
  });
  const number = (name: keyof typeof values, minimum: number) => {
    const value = Number(values[name]);
    if (!Number.isFinite(value) || value < minimum) throw new Error(`--${name} must be a number >= ${minimum}, got "${values[name]}"`);
    return value;
  };
  return {
    rate: number('rate', 1),
    seconds: number('seconds', 1),
    floodSeconds: number('flood-seconds', 1),
    connections: number('connections', 1),
    subscribers: number('subscribers', 1),
    rounds: number('rounds', 1),
    concurrency: values.concurrency === undefined ? undefined : number('concurrency', 1),
    cpuProfileDir: values['cpu-prof'],
    historySeconds: number('history-seconds', 0),
  };
}
