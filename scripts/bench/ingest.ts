/**
 * `npm run bench -- ingest [--seconds 10] [--warmup 2] [--connections 50] [--rounds 1] [--arms a,b]`: signed
 * sample-channel webhooks (~1 KB, 1–3 events, unique ids) over loopback HTTP from a separate load
 * process, against the production webhook path (decode in the channel's sandboxed runner process +
 * durable commit), the same with the channel in host worker threads (thread-only, as before
 * isolation), the same with the runner's seccomp filter off (unfiltered: what the filter costs),
 * the same with inbox batching off, and a baseline route in the same run (verify +
 * decode on the main thread, no database). Prints req/s, p50 and p99 per arm, the same-round
 * ratios, each arm's CPU per webhook by process (host, runners, PostgreSQL, load: what bounds the
 * rate once the cores are full, and a steadier figure than req/s on a shared machine) and each
 * runner's idle RSS; with several rounds, the medians. `--arms` runs only the arms named (say
 * `baseline,batched`, to try a change quickly); the targets are judged on a run of every arm. One more arm per real
 * platform package (telegram, whatsapp, messenger, slack) posts that package's recorded text
 * delivery, made unique and signed as its platform signs, to the production path. Targets:
 * production / baseline >= 0.5 with p99 under 50 ms; isolated / thread-only >= 0.9; a runner idle
 * <= 60 MB; each platform's p99 ack well under Slack's 3 s deadline (under 300 ms).
 */
import { availableParallelism } from 'node:os';
import { parseArgs } from 'node:util';
import type { Knex } from 'knex';
import { configSchema } from '../../host/config/config.schema.ts';
import { openBenchDatabase } from './bench-database.ts';
import type { HopLatencies } from './ingest-hops.ts';
import type { LoadResult } from './ingest-load-plan.ts';
import { runIngestLoad } from './ingest-load-process.ts';
import { postgresServerCpuMs } from './process-cpu.ts';
import { INGEST_ARMS, PLATFORM_ARMS, startIngestServers, type IngestArm, type IngestServers, type PlatformArm } from './ingest-servers.ts';
import { formatMs, formatRate, formatRatio, median, printTable } from './measure.ts';

interface IngestOptions {
  seconds: number;
  warmupSeconds: number;
  connections: number;
  rounds: number;
  /** The arms to run, in the benchmark's order. */
  arms: IngestArm[];
}

/**
 * CPU time per answered webhook, in ms (all threads, warm-up included), by process: this one
 * (the host's HTTP side, with the thread-only arm's worker threads), its channel runners, the
 * PostgreSQL server (its background writers included), and the load process.
 */
interface CpuPerWebhook {
  host: number;
  runner: number;
  postgres: number;
  load: number;
  all: number;
}

interface ArmResult extends LoadResult {
  cpu: CpuPerWebhook;
  /** Inbox rows per INSERT statement, warm-up included (NaN for the baseline). */
  rowsPerInsert: number;
  /** The host's waits for the channel and the inbox, warm-up included (none for the baseline). */
  hops: HopLatencies | undefined;
}

/** One result per arm run. */
type Round = Partial<Record<IngestArm, ArmResult>>;

const ARMS = Object.keys(INGEST_ARMS) as IngestArm[];
const P99_TARGET_MS = 50;
const RATIO_TARGET = 0.5;
const ISOLATION_RATIO_TARGET = 0.9;
const RUNNER_IDLE_RSS_TARGET_MB = 60;
/** Slack's: a webhook not answered within it is retried. "Well under" it: a tenth. */
const ACK_DEADLINE_MS = 3_000;

export async function runIngestBenchmark(): Promise<void> {
  const options = readOptions(process.argv.slice(3));
  const bench = await openBenchDatabase({ poolMax: configSchema.parse({}).BOT_DB_POOL_MAX });
  let servers: IngestServers | undefined;
  try {
    servers = await startIngestServers(bench.db);
    console.log(`ingest benchmark on ${bench.server}: ${options.connections} connections, ${options.seconds} s per arm after ${options.warmupSeconds} s of warm-up, ${options.rounds} round(s)`);
    for (const arm of options.arms) console.log(`  ${arm.padEnd(10)} ${INGEST_ARMS[arm]}`);
    for (const runner of servers.runnerIdleRss) {
      const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
      console.log(`  runner of ${runner.channel} (${runner.isolation}): idle RSS ${mb(runner.rssBytes)} MB (target <= ${RUNNER_IDLE_RSS_TARGET_MB} MB), PSS ${mb(runner.pssBytes)} MB`);
    }
    const rounds: Round[] = [];
    for (let index = 0; index < options.rounds; index += 1) {
      rounds.push(await runRound(bench.db, servers, options, index));
      printRound(rounds.at(-1)!, index, options.arms);
    }
    printSummary(rounds, options.arms);
  } finally {
    await servers?.close();
    await bench.close();
  }
}

function readOptions(args: string[]): IngestOptions {
  const { values } = parseArgs({
    args,
    options: {
      seconds: { type: 'string', default: '10' },
      warmup: { type: 'string', default: '2' },
      connections: { type: 'string', default: '50' },
      rounds: { type: 'string', default: '1' },
      arms: { type: 'string' },
    },
  });
  const number = (name: keyof typeof values, minimum: number) => {
    const value = Number(values[name]);
    if (!Number.isFinite(value) || value < minimum) throw new Error(`--${name} must be a number >= ${minimum}, got "${values[name]}"`);
    return value;
  };
  return { seconds: number('seconds', 1), warmupSeconds: number('warmup', 0), connections: number('connections', 1), rounds: number('rounds', 1), arms: readArms(values.arms) };
}

function readArms(list: string | undefined): IngestArm[] {
  if (list === undefined) return ARMS;
  const named = new Set(list.split(',').map((name) => name.trim()));
  const unknown = [...named].filter((name) => !(ARMS as string[]).includes(name));
  if (unknown.length > 0 || named.size === 0) throw new Error(`--arms takes a comma-separated list of ${ARMS.join(', ')}; got "${list}"`);
  return ARMS.filter((arm) => named.has(arm));
}

/** Every arm once; the order turns each round so no arm always runs on a warmer machine. */
async function runRound(db: Knex, servers: IngestServers, options: IngestOptions, index: number): Promise<Round> {
  const { arms } = options;
  const order = arms.map((_, offset) => arms[(index + offset) % arms.length]!);
  const round: Round = {};
  for (const arm of order) round[arm] = await runArm(db, servers, options, arm, `r${index}-${arm}`);
  return round;
}

async function runArm(db: Knex, servers: IngestServers, options: IngestOptions, arm: IngestArm, idPrefix: string): Promise<ArmResult> {
  const rowsBefore = await countInboxRows(db);
  const inserts = countInboxInserts(db);
  servers.hops.take();
  const cpuBefore = await readCpu(db, servers);
  let result: LoadResult;
  try {
    result = await runIngestLoad({
      url: servers.urls[arm],
      connections: options.connections,
      warmupSeconds: options.warmupSeconds,
      durationSeconds: options.seconds,
      secret: servers.secret,
      idPrefix,
      ...(isPlatformArm(arm) ? { delivery: servers.deliveries[arm] } : {}),
    });
  } finally {
    inserts.stop();
  }
  const cpuAfter = await readCpu(db, servers);
  const rowsAdded = (await countInboxRows(db)) - rowsBefore;
  checkDurable(arm, result, rowsAdded);
  const cpu = cpuPerWebhook(cpuBefore, cpuAfter, result);
  return { ...result, cpu, rowsPerInsert: inserts.count > 0 ? rowsAdded / inserts.count : Number.NaN, hops: servers.hops.take() };
}

async function readCpu(db: Knex, servers: IngestServers): Promise<{ host: number; runner: number; postgres: number }> {
  const postgres = await postgresServerCpuMs(db);
  const usage = process.cpuUsage();
  return { host: (usage.user + usage.system) / 1000, runner: servers.runnersCpuMs(), postgres };
}

function cpuPerWebhook(before: Awaited<ReturnType<typeof readCpu>>, after: Awaited<ReturnType<typeof readCpu>>, result: LoadResult): CpuPerWebhook {
  const answered = Math.max(1, result.ok + result.warmupOk);
  const host = (after.host - before.host) / answered;
  const runner = (after.runner - before.runner) / answered;
  const postgres = (after.postgres - before.postgres) / answered;
  const load = result.cpuMs / answered;
  return { host, runner, postgres, load, all: host + runner + postgres + load };
}

/** A 200 from the production path promises the events are stored; fewer rows would break that. */
function checkDurable(arm: IngestArm, result: LoadResult, rowsAdded: number): void {
  if (result.failed > 0) console.warn(`  ${arm}: ${result.failed} requests failed (non-2xx, socket error or time-out)`);
  if (arm !== 'baseline' && rowsAdded < result.events) {
    throw new Error(`${arm}: ${result.events} events were acknowledged but only ${rowsAdded} rows were added`);
  }
}

function isPlatformArm(arm: IngestArm): arm is PlatformArm {
  return (PLATFORM_ARMS as readonly string[]).includes(arm);
}

async function countInboxRows(db: Knex): Promise<number> {
  const [row] = await db('inbound_events').count({ count: '*' });
  return Number(row!.count);
}

function countInboxInserts(db: Knex): { readonly count: number; stop(): void } {
  let count = 0;
  const onQuery = (query: { sql: string }) => {
    if (/insert\s+into\s+"?inbound_events"?/i.test(query.sql)) count += 1;
  };
  db.on('query', onQuery);
  return {
    get count() {
      return count;
    },
    stop: () => void db.removeListener('query', onQuery),
  };
}

function printRound(round: Round, index: number, arms: IngestArm[]): void {
  printTable(`Round ${index + 1}`, [
    ['arm', 'req/s', 'p50', 'p99', 'failed', 'rows/INSERT', 'channel call p50', 'inbox commit p50'],
    ...arms.map((arm) => {
      const result = round[arm]!;
      const rowsPerInsert = Number.isNaN(result.rowsPerInsert) ? '-' : result.rowsPerInsert.toFixed(1);
      const hop = (pick: (hops: HopLatencies) => { p50Ms: number }) => (result.hops ? formatMs(pick(result.hops).p50Ms) : '-');
      return [arm, formatRate(result.requestsPerSecond), formatMs(result.p50Ms), formatMs(result.p99Ms), String(result.failed), rowsPerInsert, hop((hops) => hops.call), hop((hops) => hops.commit)];
    }),
  ]);
  console.log('channel call, inbox commit: the host waiting for the runner and for PostgreSQL, warm-up included');
  printTable(`CPU per webhook, round ${index + 1} (all threads, warm-up included; the machine has ${availableParallelism()} cores)`, [
    ['arm', 'host', 'runner', 'postgres', 'load', 'all', 'all cores busy'],
    ...arms.map((arm) => {
      const { host, runner, postgres, load, all } = round[arm]!.cpu;
      return [arm, formatMs(host), formatMs(runner), formatMs(postgres), formatMs(load), formatMs(all), `${formatRate(cpuBoundRate(all))} req/s`];
    }),
  ]);
  console.log('all cores busy: the rate at which this CPU per webhook would fill every core');
  const ratios = RATIOS.filter(([, a, b]) => round[a] && round[b]).map(([label, a, b]) => `${label} ${formatRatio(rateRatio(round, a, b))}`);
  if (ratios.length > 0) console.log(ratios.join(', '));
}

/** The same-round ratios printed after each round, for the arms run. */
const RATIOS: Array<[label: string, a: IngestArm, b: IngestArm]> = [
  ['batched / baseline', 'batched', 'baseline'],
  ['unbatched / baseline', 'unbatched', 'baseline'],
  ['batched / unbatched', 'batched', 'unbatched'],
  ['isolated / thread-only', 'batched', 'threads'],
  ['isolated without the seccomp filter / thread-only', 'unfiltered', 'threads'],
  ['filtered / unfiltered', 'batched', 'unfiltered'],
];

/** Req/s of arm `a` over arm `b` in one round; both must have run. */
function rateRatio(round: Round, a: IngestArm, b: IngestArm): number {
  return round[a]!.requestsPerSecond / round[b]!.requestsPerSecond;
}

/** Webhooks per second that `msPerWebhook` of CPU would fill the machine's cores with. */
function cpuBoundRate(msPerWebhook: number): number {
  return (availableParallelism() * 1000) / msPerWebhook;
}

function printSummary(rounds: Round[], arms: IngestArm[]): void {
  const medianOf = (pick: (round: Round) => number) => median(rounds.map(pick));
  const of = (round: Round, arm: IngestArm) => round[arm]!;
  printTable(`Medians of ${rounds.length} round(s)`, [
    ['arm', 'req/s', 'p50', 'p99'],
    ...arms.map((arm) => [
      arm,
      formatRate(medianOf((round) => of(round, arm).requestsPerSecond)),
      formatMs(medianOf((round) => of(round, arm).p50Ms)),
      formatMs(medianOf((round) => of(round, arm).p99Ms)),
    ]),
  ]);
  const ran = (...wanted: IngestArm[]) => wanted.every((arm) => arms.includes(arm));
  const ratioOf = (a: IngestArm, b: IngestArm) => medianOf((round) => rateRatio(round, a, b));
  console.log('');
  if (ran('batched', 'baseline')) {
    const p99 = medianOf((round) => of(round, 'batched').p99Ms);
    console.log(`production (a) / baseline (b): ${formatRatio(ratioOf('batched', 'baseline'))} (target >= ${RATIO_TARGET}x); p99 of (a) ${formatMs(p99)} (target < ${P99_TARGET_MS} ms)`);
    const cpuOf = (arm: IngestArm) => medianOf((round) => of(round, arm).cpu.all);
    console.log(`CPU per webhook, all processes: production ${formatMs(cpuOf('batched'))}, baseline ${formatMs(cpuOf('baseline'))} (${formatRatio(cpuOf('batched') / cpuOf('baseline'))}); with every core busy, production / baseline could reach ${formatRatio(cpuOf('baseline') / cpuOf('batched'))}`);
  }
  if (ran('batched', 'unbatched')) console.log(`batching on / off: ${formatRatio(ratioOf('batched', 'unbatched'))}`);
  if (ran('batched', 'threads')) {
    // What the process hop adds to one webhook: at the same load, the latency difference; at
    // saturation, the host capacity each webhook costs more.
    const hopP50 = medianOf((round) => of(round, 'batched').p50Ms - of(round, 'threads').p50Ms);
    const hopCapacity = medianOf((round) => 1000 / of(round, 'batched').requestsPerSecond - 1000 / of(round, 'threads').requestsPerSecond);
    console.log(`isolated (a) / thread-only: ${formatRatio(ratioOf('batched', 'threads'))} (target >= ${ISOLATION_RATIO_TARGET}x); the process hop adds ${formatMs(hopP50)} at p50 and ${formatMs(hopCapacity)} of capacity per webhook`);
  }
  if (ran('batched', 'threads', 'unfiltered')) {
    console.log(`isolated / thread-only without the seccomp filter: ${formatRatio(ratioOf('unfiltered', 'threads'))}; with it / without it: ${formatRatio(ratioOf('batched', 'unfiltered'))}`);
  }
  for (const arm of PLATFORM_ARMS.filter((platform) => ran(platform, 'batched'))) {
    const armP99 = medianOf((round) => of(round, arm).p99Ms);
    console.log(`${arm} / production (sample): ${formatRatio(ratioOf(arm, 'batched'))}; p99 ack ${formatMs(armP99)} (target well under Slack's ${formatMs(ACK_DEADLINE_MS)})`);
  }
  if (!ran(...ARMS)) {
    console.log('targets are judged on a run of every arm');
    return;
  }
  const acksMet = PLATFORM_ARMS.every((arm) => medianOf((round) => of(round, arm).p99Ms) < ACK_DEADLINE_MS / 10);
  const met =
    ratioOf('batched', 'baseline') >= RATIO_TARGET &&
    medianOf((round) => of(round, 'batched').p99Ms) < P99_TARGET_MS &&
    ratioOf('batched', 'threads') >= ISOLATION_RATIO_TARGET &&
    acksMet;
  console.log(met ? 'target met' : 'target NOT met');
}
