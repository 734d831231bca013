import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, beforeEach, test } from 'node:test';
import pino from 'pino';
import { createKnex } from '../../../host/db/create-knex.ts';
import { TtlSweeper, type TtlSweeperOptions } from '../../../host/memory/records/ttl-sweeper.ts';
import { TestClock } from '../../support/test-clock.ts';
import { createTestDatabase, type TestDatabase } from '../../support/test-database.ts';
import { insertDefinition } from './insert-definition.ts';

let database: TestDatabase;
let definitionId: string;
const clock = new TestClock('2030-01-01T00:00:00.000Z');
const logger = pino({ level: 'silent' });

before(async () => {
  database = await createTestDatabase();
  definitionId = await insertDefinition(database.db, { slug: 'session', ttlSeconds: 60 });
});
beforeEach(() => database.db('memory_records').delete());
after(() => database.close());

/** Inserts `count` records expiring `offsetMs` from the clock's now (negative: already expired). */
async function insertRecords(prefix: string, count: number, offsetMs: number | null): Promise<void> {
  const expiresAt = offsetMs === null ? null : new Date(clock.now().getTime() + offsetMs);
  await database.db.raw(
    `INSERT INTO memory_records (definition_id, owner_id, scope_key, value, expires_at)
     SELECT ?, ? || n, '', '{}'::jsonb, ? FROM generate_series(1, ?) AS n`,
    [definitionId, prefix, expiresAt, count],
  );
}

async function ownersLeft(): Promise<string[]> {
  const rows: { owner_id: string }[] = await database.db('memory_records').select('owner_id');
  return rows.map((row) => row.owner_id.replace(/\d+$/, '')).filter((owner, index, all) => all.indexOf(owner) === index);
}

function sweeper(options: Partial<TtlSweeperOptions> = {}, db = database.db): TtlSweeper {
  return new TtlSweeper(db, { intervalMs: 60_000, batchSize: 10, pauseMs: 0, now: clock.now, logger, ...options });
}

test('a sweep deletes expired rows in batches and leaves live and permanent ones', async () => {
  await insertRecords('expired', 25, -1);
  await insertRecords('live', 5, 1000);
  await insertRecords('permanent', 5, null);

  const result = await sweeper({ batchSize: 10 }).sweepOnce();

  assert.deepEqual(result, { deleted: 25, batches: 3, ran: true });
  assert.deepEqual((await ownersLeft()).sort(), ['live', 'permanent']);
});

test('a record expiring exactly now is swept', async () => {
  await insertRecords('now', 1, 0);

  assert.equal((await sweeper().sweepOnce()).deleted, 1);
});

test('a sweep with nothing expired runs one empty batch', async () => {
  await insertRecords('live', 3, 1000);

  assert.deepEqual(await sweeper().sweepOnce(), { deleted: 0, batches: 1, ran: true });
});

test('a second sweeper on the same database skips while the first holds the lock', async () => {
  await insertRecords('expired', 3, -1);
  const otherHost = createKnex({ url: database.url, poolMax: 2 });
  try {
    const first = sweeper({ batchSize: 1, pauseMs: 300 });
    const firstRun = first.sweepOnce();
    while ((await database.db('memory_records').count<{ n: number }[]>({ n: '*' }))[0]!.n === 3) await sleep(10);

    assert.deepEqual(await sweeper({}, otherHost).sweepOnce(), { deleted: 0, batches: 0, ran: false });
    assert.equal((await firstRun).deleted, 3);
    assert.equal((await sweeper({}, otherHost).sweepOnce()).ran, true);
  } finally {
    await otherHost.destroy();
  }
});

test('a started sweeper sweeps on its interval until closed', async () => {
  await insertRecords('expired', 4, -1);
  const timed = sweeper({ intervalMs: 10 });
  timed.start();
  while ((await ownersLeft()).length > 0) await sleep(10);
  await timed.close();

  await insertRecords('after-close', 2, -1);
  await sleep(50);
  assert.deepEqual(await ownersLeft(), ['after-close']);
});

test('close cuts a running sweep short after its current batch and waits for it', async () => {
  await insertRecords('expired', 5, -1);
  const slow = sweeper({ batchSize: 1, pauseMs: 200 });
  const running = slow.sweepOnce();
  await sleep(50);

  await slow.close();

  const result = await running;
  assert.ok(result.deleted >= 1 && result.deleted < 5, `deleted ${result.deleted}`);
});

test('options are checked when the sweeper is built', () => {
  assert.throws(() => sweeper({ batchSize: 0 }), /batchSize must be a positive integer/);
  assert.throws(() => sweeper({ pauseMs: -1 }), /pauseMs must be a non-negative integer/);
});
