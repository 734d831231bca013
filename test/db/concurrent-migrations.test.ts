import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { createKnex } from '../../host/db/create-knex.ts';
import { migrateToLatest, migrationsApplied } from '../../host/db/migration-source.ts';
import { createTestDatabase } from '../support/test-database.ts';

const database = await createTestDatabase({ migrate: false });
after(() => database.close());

test('several hosts starting together on a fresh database all migrate it, one after another', async () => {
  const hosts = Array.from({ length: 3 }, () => createKnex({ url: database.url, poolMax: 2 }));
  try {
    const outcomes = await Promise.allSettled(hosts.map((db) => migrateToLatest(db)));
    assert.deepEqual(outcomes.map((outcome) => (outcome.status === 'rejected' ? String(outcome.reason) : 'ok')), ['ok', 'ok', 'ok']);
    assert.equal(await migrationsApplied(database.db), true);
  } finally {
    await Promise.all(hosts.map((db) => db.destroy()));
  }
});
