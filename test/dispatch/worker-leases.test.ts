import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import pino from 'pino';
import { WorkerLeases } from '../../host/dispatch/worker-leases.ts';
import { createTestDatabase, type TestDatabase } from '../support/test-database.ts';

let database: TestDatabase;
before(async () => (database = await createTestDatabase()));
after(() => database.close());

const leaseRows = async () => (await database.db('job_worker_leases').orderBy('worker_id').pluck('worker_id')) as string[];

function leases(unlocked: string[][]): WorkerLeases {
  return new WorkerLeases({
    db: database.db,
    leaseMs: 60_000,
    unlock: async (ids) => void unlocked.push(ids),
    logger: pino({ level: 'silent' }),
  });
}

test("a dead runner's ids are freed at once when the database answers, and its lease rows go", async () => {
  const unlocked: string[][] = [];
  const own = leases(unlocked);
  await own.hold('pool-dead');
  await own.hold('pool-live');
  await own.release(['pool-dead']);
  assert.deepEqual(unlocked, [['pool-dead']]);
  assert.deepEqual(await leaseRows(), ['pool-live']);
  await own.stop();
  assert.deepEqual(await leaseRows(), [], 'a clean stop gives the live leases back');
});

test('ids that could not be freed are forgotten but keep their lease rows, so the lease runs out and another instance frees their jobs', async () => {
  const own = leases([]);
  await own.hold('pool-stranded');
  await own.hold('pool-clean');
  own.forget(['pool-stranded']);
  await own.stop();
  assert.deepEqual(await leaseRows(), ['pool-stranded']);

  // Another instance, once the lease ran out, frees them.
  await database.db('job_worker_leases').update({ heartbeat_at: database.db.raw(`now() - interval '2 minutes'`) });
  const unlocked: string[][] = [];
  const other = leases(unlocked);
  other.start();
  await other.stop();
  assert.deepEqual(unlocked, [['pool-stranded']]);
  assert.deepEqual(await leaseRows(), []);
});
