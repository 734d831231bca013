/**
 * `npm run bench -- chaos [--messages 20000] [--seconds 60] [--outage-seconds 2]
 * [--flood-seconds 10] [--connections 64] [--subscribers 500] [--lease-ms 5000] [--logs <dir>]`:
 * two host instances (`npm start`, fixed ports) on one PostgreSQL server of the benchmark's own,
 * and a load process that behaves like a platform: signed greeting webhooks spread over both
 * instances, each sent again (to the other instance) until answered 200.
 * 1. Throughput: `--connections` senders back to back for `--flood-seconds` against one
 *    instance, then against both; messages/s from the first send to the last reply.
 * 2. Chaos: `--messages` over `--seconds`; at a third of it one instance is SIGKILLed (and
 *    started again 2 s later, as a supervisor would); at two thirds PostgreSQL is stopped for
 *    `--outage-seconds` and started again. Then every acknowledged message must be answered.
 * `--logs` keeps each instance's log lines in that folder.
 * Prints `sent N, acknowledged N, processed N, lost N, duplicated N` and the throughput line.
 */
import { parseArgs } from 'node:util';
import { ChaosCluster } from './chaos-cluster.ts';
import type { ChaosLoadPlan, ChaosLoadResult } from './chaos-plan.ts';
import { WEBHOOK_SECRET } from './e2e-host.ts';
import { BenchPlatform } from './e2e-platform.ts';
import { runLoadProcess } from './fork-load.ts';

const LOAD_ENTRY = new URL('./chaos-load.ts', import.meta.url);
/** Waiting for replies ends when none came for this long. */
const DRAIN_IDLE_MS = 30_000;
const RESTART_AFTER_KILL_MS = 2_000;

interface ChaosOptions {
  messages: number;
  seconds: number;
  outageSeconds: number;
  floodSeconds: number;
  connections: number;
  subscribers: number;
  leaseMs: number;
  logsDir: string | undefined;
}

export async function runChaosBenchmark(): Promise<void> {
  const options = readOptions(process.argv.slice(3));
  const platform = await BenchPlatform.start();
  const cluster = await ChaosCluster.start({ instances: 2, platformUrl: platform.url, leaseMs: options.leaseMs });
  try {
    console.log(`chaos benchmark: 2 instances (\`npm start\`), an embedded PostgreSQL of its own, ${options.subscribers} subscribers, lease ${options.leaseMs} ms`);
    const base = { secret: WEBHOOK_SECRET, subscribers: options.subscribers, connections: options.connections, retryAfterMs: 250, giveUpAfterMs: 120_000 };
    // Warm-up: subscribers exist, JIT and pools are warm on both instances.
    await deliverAndDrain(platform, { ...base, urls: cluster.webhookUrls(), prefix: 'w', mode: 'paced', count: options.subscribers, seconds: 5 });

    const one = await deliverAndDrain(platform, { ...base, urls: cluster.webhookUrls(1), prefix: 'one', mode: 'flood', count: 0, seconds: options.floodSeconds });
    const two = await deliverAndDrain(platform, { ...base, urls: cluster.webhookUrls(2), prefix: 'two', mode: 'flood', count: 0, seconds: options.floodSeconds });

    const chaos = { ...base, urls: cluster.webhookUrls(), prefix: 'c', mode: 'paced' as const, count: options.messages, seconds: options.seconds };
    const faults = injectFaults(cluster, options);
    const result = await deliverAndDrain(platform, chaos);
    const events = await faults;

    const processed = result.acknowledged.filter((name) => platform.arrivals.has(name)).length;
    const duplicated = result.acknowledged.filter((name) => platform.answeredTwice.has(name)).length;
    console.log(`  faults: ${events.join('; ')}`);
    console.log(`  refused attempts (sent again, as a platform would): ${formatCounts(result.load.refusals)}`);
    console.log(`  same reply sent again under its key (dropped by the platform): ${platform.duplicates}`);
    if (duplicated > 0) await explainDuplicates(cluster, result.acknowledged.filter((name) => platform.answeredTwice.has(name)).slice(0, 5));
    if (cluster.exited().length > 0) console.log(`  instances that exited by themselves: ${cluster.exited().join(', ')}`);
    console.log(`sent ${result.load.sent}, acknowledged ${result.acknowledged.length}, processed ${processed}, lost ${result.acknowledged.length - processed}, duplicated ${duplicated}`);
    console.log(`throughput: one instance ${one.rate.toFixed(0)} messages/s, two instances ${two.rate.toFixed(0)} messages/s (×${(two.rate / one.rate).toFixed(2)}), webhook to reply, ${options.connections} senders for ${options.floodSeconds} s each`);
  } finally {
    if (options.logsDir) await cluster.saveLogs(options.logsDir);
    await cluster.close();
    await platform.close();
  }
}

/** For each name answered twice, the replies that carry it and the events they answered, from the database. */
async function explainDuplicates(cluster: ChaosCluster, names: string[]): Promise<void> {
  const db = cluster.connect();
  try {
    for (const name of names) {
      const { rows } = await db.raw<{ rows: Record<string, unknown>[] }>(
        `SELECT e.event_id, e.status, e.attempts, e.reason, o.send_key, o.status AS send_status, o.attempts AS send_attempts, o.created_at
         FROM outbound_messages AS o JOIN inbound_events AS e ON e.id = o.inbound_event_id
         WHERE o.envelope::text LIKE ? ORDER BY o.created_at`,
        [`%Hello ${name}!%`],
      );
      console.log(`  answered under two send keys: ${name}`);
      for (const row of rows) console.log(`    ${JSON.stringify(row)}`);
    }
  } finally {
    await db.destroy();
  }
}

/** The kill (and restart) and the database outage, at a third and two thirds of the chaos load. */
async function injectFaults(cluster: ChaosCluster, options: ChaosOptions): Promise<string[]> {
  const started = Date.now();
  const at = (fraction: number) => sleep(Math.max(0, started + options.seconds * 1000 * fraction - Date.now()));
  const events: string[] = [];
  await at(1 / 3);
  await cluster.killInstance(1);
  events.push(`instance 2 SIGKILLed at ${seconds(started)} s`);
  await sleep(RESTART_AFTER_KILL_MS);
  await cluster.startInstance(1);
  events.push(`started again at ${seconds(started)} s`);
  await at(2 / 3);
  await cluster.stopDatabase();
  events.push(`PostgreSQL stopped at ${seconds(started)} s`);
  await sleep(options.outageSeconds * 1000);
  await cluster.startDatabase();
  events.push(`started again at ${seconds(started)} s`);
  return events;
}

interface Delivered {
  load: ChaosLoadResult;
  acknowledged: string[];
  /** Acknowledged messages per second, from the first send to the last of their replies. */
  rate: number;
}

/** Runs one load plan in a fresh load process, then waits until every acknowledged message is answered or replies stop coming. */
async function deliverAndDrain(platform: BenchPlatform, plan: ChaosLoadPlan): Promise<Delivered> {
  const load = await runLoad(plan);
  const { acknowledged } = load;
  let answered = 0;
  let lastProgress = Date.now();
  for (;;) {
    const now = acknowledged.filter((name) => platform.arrivals.has(name)).length;
    if (now !== answered) lastProgress = Date.now();
    answered = now;
    if (answered === acknowledged.length || Date.now() - lastProgress > DRAIN_IDLE_MS) break;
    await sleep(100);
  }
  const lastReply = acknowledged.reduce((latest, name) => Math.max(latest, platform.arrivals.get(name) ?? 0), load.startedAt);
  return { load, acknowledged, rate: answered / ((lastReply - load.startedAt) / 1000) };
}

function runLoad(plan: ChaosLoadPlan): Promise<ChaosLoadResult> {
  return runLoadProcess<ChaosLoadPlan, ChaosLoadResult>(LOAD_ENTRY, plan);
}

function readOptions(args: string[]): ChaosOptions {
  const { values } = parseArgs({
    args,
    options: {
      messages: { type: 'string', default: '20000' },
      seconds: { type: 'string', default: '60' },
      'outage-seconds': { type: 'string', default: '2' },
      'flood-seconds': { type: 'string', default: '10' },
      connections: { type: 'string', default: '64' },
      subscribers: { type: 'string', default: '500' },
      'lease-ms': { type: 'string', default: '5000' },
      logs: { type: 'string' },
    },
  });
  const number = (name: keyof typeof values) => {
    const value = Number(values[name]);
    if (!Number.isFinite(value) || value <= 0) throw new Error(`--${name} must be a positive number, got ${values[name]}`);
    return value;
  };
  return {
    messages: number('messages'),
    seconds: number('seconds'),
    outageSeconds: number('outage-seconds'),
    floodSeconds: number('flood-seconds'),
    connections: number('connections'),
    subscribers: number('subscribers'),
    leaseMs: number('lease-ms'),
    logsDir: values.logs,
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const seconds = (since: number) => ((Date.now() - since) / 1000).toFixed(1);
const formatCounts = (counts: Record<string, number>) => Object.entries(counts).map(([reason, count]) => `${reason} ×${count}`).join(', ') || 'none';
