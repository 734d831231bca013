import type { Knex } from 'knex';
import { cpuSince, readCpuTimes, type CpuTimes } from './e2e-cpu.ts';
import { runE2eLoad } from './e2e-load-process.ts';
import type { E2eLoadPlan } from './e2e-plan.ts';
import type { BenchPlatform } from './e2e-platform.ts';
import { readStageMedians, type StageMedians } from './e2e-stages.ts';
import { latencyPercentiles } from './measure.ts';

/** What one load phase measured, from the acknowledgements and the platform's arrivals. */
export interface PhaseResult {
  acked: number;
  failed: number;
  failures: Record<string, number>;
  /** Paced: webhooks sent per second while sending (whether the schedule was kept). */
  sendRate: number;
  /** Webhooks acknowledged per second over the load's time. */
  ackRate: number;
  /** Replies per second at the platform while the load ran. */
  replyRateUnderLoad: number;
  /** Acknowledged messages over the time from the first send to the last of their replies. */
  endToEndRate: number;
  /** Acknowledgement → reply at the platform. */
  p50Ms: number;
  p99Ms: number;
  /** Acknowledged messages whose reply never came; replies that came twice. */
  missing: number;
  /** For each missing reply, what the database says of its event and its send. */
  missingDetails: string[];
  duplicates: number;
  /** Transactions that wrote (each takes a transaction id), per message. */
  writesPerMessage: number;
  /** CPU time per message, in ms, by process: the host, its PostgreSQL backends, the platform, the load generator. */
  cpuPerMessage: CpuTimes & { load: number };
  stages: StageMedians;
}

export interface PhaseContext {
  db: Knex;
  platform: BenchPlatform;
  hostPid: number;
}

const DRAIN_IDLE_MS = 20_000;

/** Runs one load plan, waits for every acknowledged message's reply, and measures. */
export async function runPhase(context: PhaseContext, plan: E2eLoadPlan): Promise<PhaseResult> {
  const { db, platform } = context;
  const firstXid = await currentXid(db);
  const cpuBefore = await readCpuTimes(db, context.hostPid);
  const duplicatesBefore = platform.duplicates;
  const load = await runE2eLoad(plan);
  const acks = new Map(load.acks);
  const missing = await waitForReplies(platform, [...acks.keys()]);
  const cpu = cpuSince(cpuBefore, await readCpuTimes(db, context.hostPid));
  const writes = (await currentXid(db)) - firstXid;
  const perMessage = (ms: number) => ms / Math.max(1, acks.size);

  const latencies: number[] = [];
  let lastArrival = load.endedAt;
  let underLoad = 0;
  for (const [name, ackedAt] of acks) {
    const arrival = platform.arrivals.get(name);
    if (arrival === undefined) continue;
    latencies.push(arrival - ackedAt);
    lastArrival = Math.max(lastArrival, arrival);
    if (arrival <= load.endedAt) underLoad += 1;
  }
  const loadSeconds = (load.endedAt - load.startedAt) / 1000;
  return {
    acked: acks.size,
    failed: load.failed,
    failures: load.failures,
    sendRate: (plan.count ?? plan.rate * plan.seconds) / ((load.lastSentAt - load.startedAt) / 1000),
    ackRate: acks.size / loadSeconds,
    replyRateUnderLoad: underLoad / loadSeconds,
    endToEndRate: latencies.length / ((lastArrival - load.startedAt) / 1000),
    ...latencyPercentiles(latencies),
    missing: missing.length,
    missingDetails: await describeMissing(db, missing),
    duplicates: platform.duplicates - duplicatesBefore,
    writesPerMessage: perMessage(writes),
    cpuPerMessage: { host: perMessage(cpu.host), runners: perMessage(cpu.runners), postgres: perMessage(cpu.postgres), platform: perMessage(cpu.platform), load: perMessage(load.cpuMs) },
    stages: await readStageMedians(db, plan.prefix, acks, platform.arrivals),
  };
}

/** Waits until every name has a reply, or none more arrives for a while; returns those missing. */
export async function waitForReplies(platform: BenchPlatform, names: string[]): Promise<string[]> {
  let missing = names.filter((name) => !platform.arrivals.has(name));
  let lastProgress = Date.now();
  while (missing.length > 0 && Date.now() - lastProgress < DRAIN_IDLE_MS) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    const still = missing.filter((name) => !platform.arrivals.has(name));
    if (still.length < missing.length) lastProgress = Date.now();
    missing = still;
  }
  return missing;
}

/** `name: event <status> (<reason>), send <status> <error code>` for each message without a reply. */
export async function describeMissing(db: Knex, names: string[]): Promise<string[]> {
  if (names.length === 0) return [];
  const rows: { event_id: string; status: string; reason: string | null; send_status: string | null; send_error: { code?: string } | null }[] = await db('inbound_events as e')
    .leftJoin('outbound_messages as o', 'o.inbound_event_id', 'e.id')
    .whereIn('e.event_id', names)
    .select('e.event_id', 'e.status', 'e.reason', { send_status: 'o.status', send_error: 'o.error' });
  return rows.map((row) => `${row.event_id}: event ${row.status}${row.reason ? ` (${row.reason})` : ''}, send ${row.send_status ?? 'none'}${row.send_error?.code ? ` ${row.send_error.code}` : ''}`);
}

async function currentXid(db: Knex): Promise<number> {
  const { rows } = await db.raw<{ rows: { xid: string }[] }>('SELECT txid_current() AS xid');
  return Number(rows[0]!.xid);
}
