import { setTimeout as sleep } from 'node:timers/promises';
import type { Knex } from 'knex';

/**
 * Resolves once a statement of the optimistic upsert (see upsert-records.ts) waits for a row lock;
 * fails after `timeoutMs`, so a write that never takes that path fails the test instead of hanging it.
 */
export function untilUpsertWaitsForLock(db: Knex, timeoutMs = 5_000): Promise<void> {
  return untilStatementWaitsForLock(db, '%memory_definitions d WHERE d.id = w.id FOR SHARE%', timeoutMs);
}

/**
 * Resolves once a statement of this database whose text is LIKE `queryPattern` waits for a lock;
 * fails after `timeoutMs`.
 */
export async function untilStatementWaitsForLock(db: Knex, queryPattern: string, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const waiting = await db('pg_stat_activity')
      .where({ datname: db.raw('current_database()'), wait_event_type: 'Lock' })
      .whereLike('query', queryPattern)
      .first('pid');
    if (waiting) return;
    await sleep(5);
  }
  throw new Error(`no statement like ${queryPattern} waited for a lock within ${timeoutMs} ms`);
}
