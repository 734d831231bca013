import { performance } from 'node:perf_hooks';
import type { Knex } from 'knex';
import pino from 'pino';
import { configSchema } from '../../host/config/config.schema.ts';
import type { MemoryRecordStore } from '../../host/memory/records/memory-record-store.ts';
import { TtlSweeper } from '../../host/memory/records/ttl-sweeper.ts';
import { formatMs, formatRate, formatRatio, forMs, median, printTable, runLoops, type LoopStats } from './measure.ts';
import { benchValue, type BenchDefinition } from './memory-fixtures.ts';

const EXPIRED_ROWS = 1_000_000;
const LIVE_ROWS = 200_000;
const WRITERS = 4;
const BASELINE_MS = 5_000;
const WARM_UP_MS = 8_000;
const SWEEP_ROUNDS = Number(process.env.BENCH_SWEEP_ROUNDS ?? 3);

/**
 * The sweep settings measured: the host's own defaults, overridable to tune
 * (`BENCH_SWEEP_BATCH_SIZE`, `BENCH_SWEEP_PAUSE_MS`), so the figures describe what the host runs.
 */
const SETTINGS = {
  batchSize: Number(process.env.BENCH_SWEEP_BATCH_SIZE ?? configSchema.shape.BOT_MEMORY_SWEEP_BATCH_SIZE.parse(undefined)),
  pauseMs: Number(process.env.BENCH_SWEEP_PAUSE_MS ?? configSchema.shape.BOT_MEMORY_SWEEP_PAUSE_MS.parse(undefined)),
};

interface SweepRound {
  sweepSeconds: number;
  deleted: number;
  batches: number;
  baseline: LoopStats;
  during: LoopStats;
}

/**
 * Sweeps 1,000,000 expired rows among 200,000 live ones while 4 loops keep upserting live
 * records, and compares those loops with the same loops just before, on the same table.
 */
export async function measureSweep(db: Knex, store: MemoryRecordStore, definition: BenchDefinition): Promise<void> {
  await insertRecords(db, definition.id, 'live', LIVE_ROWS, 'live');
  const write = async () => (await store.write({ ownerId: `live-${1 + Math.floor(Math.random() * LIVE_ROWS)}` }, { [definition.slug]: benchValue(2) })).length;
  const results: SweepRound[] = [];
  for (let round = 0; round < SWEEP_ROUNDS; round += 1) {
    await insertRecords(db, definition.id, 'expired', EXPIRED_ROWS, 'expired');
    await settleTable(db);
    // The first update of each page after a checkpoint logs a full page image; warm the writers
    // past that so the baseline is their steady state (the expired pages stay untouched).
    await runLoops(WRITERS, forMs(WARM_UP_MS), write);
    const baseline = await runLoops(WRITERS, forMs(BASELINE_MS), write);
    results.push({ baseline, ...(await sweepUnderLoad(db, write)) });
    await db.raw('VACUUM memory_records');
  }
  printSweep(results);
}

/**
 * Expired rows in production were written long ago: autovacuum has seen them and a checkpoint has
 * passed, so deleting them logs full page images. CHECKPOINT needs superuser or pg_checkpoint.
 */
async function settleTable(db: Knex): Promise<void> {
  await db.raw('VACUUM ANALYZE memory_records');
  await db.raw('CHECKPOINT').catch((error: Error) => console.warn(`CHECKPOINT refused (${error.message}); sweep figures may flatter`));
}

async function sweepUnderLoad(db: Knex, write: () => Promise<number>): Promise<Omit<SweepRound, 'baseline'>> {
  const sweeper = new TtlSweeper(db, { intervalMs: 60_000, ...SETTINGS, now: () => new Date(), logger: pino({ level: 'silent' }) });
  let finished = false;
  const started = performance.now();
  const sweep = sweeper.sweepOnce().finally(() => (finished = true));
  const during = await runLoops(WRITERS, () => finished, write);
  const { deleted, batches } = await sweep;
  const sweepSeconds = (performance.now() - started) / 1000;
  if (deleted !== EXPIRED_ROWS) throw new Error(`the sweep deleted ${deleted} rows, expected ${EXPIRED_ROWS}`);
  return { sweepSeconds, deleted, batches, during };
}

/**
 * Bulk rows for one definition, `<prefix>-1`…`<prefix>-<count>`, with expiries spread over a day
 * so the sweep walks a realistic expiry index: live ones from 1 to 2 days ahead, expired ones
 * from 1 second to 1 day ago.
 */
async function insertRecords(db: Knex, definitionId: string, prefix: string, count: number, state: 'live' | 'expired'): Promise<void> {
  const [base, step] = state === 'live' ? ['1 day', 1] : ['-1 second', -1];
  await db.raw(
    `INSERT INTO memory_records (definition_id, owner_id, scope_key, value, expires_at)
     SELECT ?, ? || '-' || n, '', jsonb_build_object('name', 'Subscriber ' || n, 'age', n % 90),
            now() + ?::interval + ? * (n % 86400) * interval '1 second'
       FROM generate_series(1, ?) AS n`,
    [definitionId, prefix, base, step, count],
  );
}

function printSweep(results: SweepRound[]): void {
  const rows = results.map((result, index) => [
    `round ${index + 1}`,
    formatRate(result.deleted / result.sweepSeconds),
    `${result.sweepSeconds.toFixed(2)} s`,
    String(result.batches),
    formatRate(result.baseline.rowsPerSecond),
    formatRate(result.during.rowsPerSecond),
    formatRatio(result.during.rowsPerSecond / result.baseline.rowsPerSecond),
    formatMs(result.baseline.p99Ms),
    formatMs(result.during.p99Ms),
    formatRatio(result.during.p99Ms / result.baseline.p99Ms),
  ]);
  const medianOf = (column: (result: SweepRound) => number) => median(results.map(column));
  const rate = medianOf((result) => result.deleted / result.sweepSeconds);
  const throughput = medianOf((result) => result.during.rowsPerSecond / result.baseline.rowsPerSecond);
  const p99 = medianOf((result) => result.during.p99Ms / result.baseline.p99Ms);
  printTable(
    `TTL sweep of ${formatRate(EXPIRED_ROWS)} expired among ${formatRate(LIVE_ROWS)} live rows, batch ${SETTINGS.batchSize}, pause ${SETTINGS.pauseMs} ms, ${WRITERS} upsert loops`,
    [
      ['', 'swept rows/s', 'sweep time', 'batches', 'writes/s alone', 'writes/s in sweep', 'ratio', 'p99 alone', 'p99 in sweep', 'ratio'],
      ...rows,
      ['median', formatRate(rate), '', '', '', '', formatRatio(throughput), '', '', formatRatio(p99)],
    ],
  );
  console.log(`sweep ${formatRate(rate)} rows/s (target >= 150,000) ${rate >= 150_000 ? 'met' : 'MISSED'}`);
  console.log(`writers keep ${formatRatio(throughput)} throughput (target >= 0.90x) ${throughput >= 0.9 ? 'met' : 'MISSED'}`);
  console.log(`writers p99 ${formatRatio(p99)} (target <= 2.00x) ${p99 <= 2 ? 'met' : 'MISSED'}`);
}
