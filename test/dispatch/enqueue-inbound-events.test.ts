import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { enqueueInboundEvents } from '../../host/dispatch/enqueue-inbound-events.ts';
import { createTestDatabase, type TestDatabase } from '../support/test-database.ts';

let database: TestDatabase;
before(async () => {
  database = await createTestDatabase({ poolMax: 2 });
});
after(() => database.close());

const SOURCE_ID = '6f1c1a52-9f0e-4c55-a1c3-0d2b7f1e9a10';

async function queuedJobs(): Promise<Array<{ event: string; queue: string | null; max_attempts: number }>> {
  const result = await database.db.raw(
    `SELECT j.payload->>'inboundEventId' AS event, q.queue_name AS queue, j.max_attempts FROM graphile_worker._private_jobs j
     LEFT JOIN graphile_worker._private_job_queues q ON q.id = j.job_queue_id ORDER BY 1`,
  );
  return result.rows;
}

test('enqueues one job per event: a conversation queue per source and sender, none without a sender', async () => {
  const withSender = { id: '00000000-0000-4000-8000-000000000001', source_id: SOURCE_ID, sender_foreign_id: 'user-7' };
  const withoutSender = { id: '00000000-0000-4000-8000-000000000002', source_id: SOURCE_ID, sender_foreign_id: null };
  await database.db.transaction((trx) => enqueueInboundEvents(trx, [withSender, withoutSender], 3));
  assert.deepEqual(await queuedJobs(), [
    { event: withSender.id, queue: `conversation:${SOURCE_ID}:user-7`, max_attempts: 3 },
    { event: withoutSender.id, queue: null, max_attempts: 3 },
  ]);
});

test('enqueues nothing for no events', async () => {
  const before = (await queuedJobs()).length;
  await enqueueInboundEvents(database.db, [], 3);
  assert.equal((await queuedJobs()).length, before);
});
