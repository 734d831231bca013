import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { PreparedStatement } from '../../host/db/prepared-statement.ts';
import { createTestDatabase, type TestDatabase } from '../support/test-database.ts';

let database: TestDatabase;
before(async () => {
  database = await createTestDatabase({ migrate: false, poolMax: 2 });
  await database.db.raw('CREATE TABLE notes (id int PRIMARY KEY, body text NOT NULL)');
});
after(() => database.close());

const INSERT = new PreparedStatement<{ id: number }>('test-insert-note', 'INSERT INTO notes (id, body) VALUES (?, ?) RETURNING id');
const COUNT = new PreparedStatement<{ n: number }>('test-count-notes', 'SELECT count(*)::int AS n FROM notes WHERE body = ?');

test('runs with positional values, again and again on the same pooled connections, and returns rows and the row count', async () => {
  for (let id = 1; id <= 6; id += 1) {
    const result = await INSERT.run(database.db, [id, 'pooled']);
    assert.deepEqual(result, { rows: [{ id }], rowCount: 1 });
  }
  assert.deepEqual((await COUNT.run(database.db, ['pooled'])).rows, [{ n: 6 }]);
});

test("inside a transaction it uses the transaction's connection: a rollback undoes its write", async () => {
  await assert.rejects(
    database.db.transaction(async (trx) => {
      await INSERT.run(trx, [100, 'rolled back']);
      assert.deepEqual((await COUNT.run(trx, ['rolled back'])).rows, [{ n: 1 }], 'visible inside');
      throw new Error('roll back');
    }),
    /roll back/,
  );
  assert.deepEqual((await COUNT.run(database.db, ['rolled back'])).rows, [{ n: 0 }]);
});

test('knex query listeners see it', async () => {
  const seen: string[] = [];
  const listener = (query: { sql: string }) => seen.push(query.sql);
  database.db.on('query', listener);
  try {
    await COUNT.run(database.db, ['pooled']);
  } finally {
    database.db.off('query', listener);
  }
  assert.deepEqual(seen, ['SELECT count(*)::int AS n FROM notes WHERE body = $1']);
});

test('another text under a taken name, or a knex identifier placeholder, is refused at once; the same statement twice is fine', () => {
  assert.throws(() => new PreparedStatement('test-insert-note', 'SELECT 1'), /already named "test-insert-note" with another text/);
  assert.doesNotThrow(() => new PreparedStatement('test-count-notes', 'SELECT count(*)::int AS n FROM notes WHERE body = ?'));
  assert.throws(() => new PreparedStatement('test-identifier', 'SELECT ?? FROM notes'), /\?\? identifier placeholders/);
});
