/**
 * `npm run bench -- memory`: memory record throughput and latency on the project's own Postgres,
 * in a fresh database. Each throughput figure is the median of several rounds.
 */
import pino from 'pino';
import { MemoryRecordStore } from '../../host/memory/records/memory-record-store.ts';
import { openBenchDatabase } from './bench-database.ts';
import { formatMs, formatRate, formatRatio, forMs, median, printTable, runLoops, type LoopStats } from './measure.ts';
import { benchTarget, benchValue, createBenchDefinitions, workingMemoryEntries, type BenchDefinition } from './memory-fixtures.ts';
import { measureSweep } from './memory-sweep.ts';

const ROUNDS = 3;
const ROUND_MS = 2_000;
const OWNERS = 20_000;
const BATCH_ROWS = 500;
const LOADS = 2_000;

export async function runMemoryBenchmark(): Promise<void> {
  const bench = await openBenchDatabase({ poolMax: 16 });
  try {
    console.log(`memory benchmark on ${bench.server}; ${ROUNDS} rounds of ${ROUND_MS} ms per write figure`);
    const store = new MemoryRecordStore(bench.db, { now: () => new Date(), logger: pino({ level: 'silent' }) });
    const definitions = await createBenchDefinitions(bench.db);
    await measureWrites(store, definitions[0]!.slug);
    await measureLoad(store, definitions);
    await measureSweep(bench.db, store, definitions[0]!);
  } finally {
    await bench.close();
  }
}

async function measureWrites(store: MemoryRecordStore, slug: string): Promise<void> {
  const randomOwner = () => `writer-${Math.floor(Math.random() * OWNERS)}`;
  const single = (concurrency: number) =>
    rounds(() => runLoops(concurrency, forMs(ROUND_MS), async () => (await store.write({ ownerId: randomOwner() }, { [slug]: benchValue(1) })).length));
  let next = 0;
  const batch = () => Array.from({ length: BATCH_ROWS }, () => ({ target: { ownerId: `batch-${next++ % OWNERS}` }, slug, value: benchValue(next) }));
  const batched = rounds(() => runLoops(1, forMs(ROUND_MS), async () => (await store.writeBatch(batch())).length));

  const one = await single(1);
  const eight = await single(8);
  const many = await batched;
  printTable('Upserts (rows/s, median of rounds)', [
    ['writers', 'rows/s', 'p50', 'p99', 'vs single-row'],
    ['1 writer, 1 row per call', formatRate(one.rowsPerSecond), formatMs(one.p50Ms), formatMs(one.p99Ms), formatRatio(1)],
    ['8 writers, 1 row per call', formatRate(eight.rowsPerSecond), formatMs(eight.p50Ms), formatMs(eight.p99Ms), formatRatio(eight.rowsPerSecond / one.rowsPerSecond)],
    [`1 writer, ${BATCH_ROWS} rows per call`, formatRate(many.rowsPerSecond), formatMs(many.p50Ms), formatMs(many.p99Ms), formatRatio(many.rowsPerSecond / one.rowsPerSecond)],
  ]);
  console.log(`batched / single-row: ${formatRatio(many.rowsPerSecond / one.rowsPerSecond)} (target >= 15x)`);
}

async function measureLoad(store: MemoryRecordStore, definitions: BenchDefinition[]): Promise<void> {
  const subscribers = 1_000;
  for (let first = 0; first < subscribers; first += 50) {
    const owners = Array.from({ length: 50 }, (_, index) => `reader-${first + index}`);
    await store.writeBatch(owners.flatMap((owner, index) => workingMemoryEntries(owner, definitions, first + index)));
  }
  const definitionIds = definitions.filter((definition) => definition.scope !== 'global').map((definition) => definition.id);
  let loads = 0;
  const stats = await runLoops(1, () => loads >= LOADS, async () => {
    loads += 1;
    const loaded = await store.load(benchTarget(`reader-${Math.floor(Math.random() * subscribers)}`), { definitionIds });
    if (Object.keys(loaded.values).length !== definitions.length) throw new Error('working memory came back incomplete');
    return 1;
  });
  printTable(`Working memory load (${definitions.length} definitions, ${LOADS} loads)`, [
    ['loads/s', 'p50', 'p99'],
    [formatRate(stats.rowsPerSecond), formatMs(stats.p50Ms), formatMs(stats.p99Ms)],
  ]);
}

/** Runs a measurement ROUNDS times and keeps the median of each figure. */
async function rounds(measure: () => Promise<LoopStats>): Promise<LoopStats> {
  const results: LoopStats[] = [];
  for (let round = 0; round < ROUNDS; round += 1) results.push(await measure());
  const pick = (field: keyof LoopStats) => median(results.map((result) => result[field]));
  return { rows: pick('rows'), seconds: pick('seconds'), rowsPerSecond: pick('rowsPerSecond'), p50Ms: pick('p50Ms'), p99Ms: pick('p99Ms') };
}
