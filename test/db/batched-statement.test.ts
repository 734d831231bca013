import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { BatchedStatement } from '../../host/db/batched-statement.ts';
import { statementsDuring as statementsDuringOn } from '../support/statements-during.ts';
import { createTestDatabase, type TestDatabase } from '../support/test-database.ts';

let database: TestDatabase;
let insert: BatchedStatement<{ id: number; body: string | null }, { id: number }, number>;
before(async () => {
  database = await createTestDatabase({ migrate: false, poolMax: 2 });
  await database.db.raw('CREATE TABLE notes (id int PRIMARY KEY, body text NOT NULL)');
  insert = new BatchedStatement(database.db, {
    name: 'test-insert-notes',
    sql: 'INSERT INTO notes (id, body) SELECT id, body FROM jsonb_to_recordset(?::jsonb) AS x(id int, body text) RETURNING id',
    toRow: (note) => note,
    results: (rows, notes) => notes.map((note) => (rows.some((row) => row.id === note.id) ? note.id : -1)),
  });
});
after(() => database.close());

const statementsDuring = async (action: () => Promise<unknown>) => (await statementsDuringOn(database.db, action)).length;

test('rows submitted together share one statement, and each caller gets its own result', async () => {
  let results: number[] = [];
  const statements = await statementsDuring(async () => {
    results = await Promise.all(Array.from({ length: 20 }, (_, index) => insert.submit({ id: index + 1, body: `note ${index + 1}` })));
  });
  assert.equal(statements, 1);
  assert.deepEqual(results, Array.from({ length: 20 }, (_, index) => index + 1));
  assert.equal(Number((await database.db('notes').count({ n: '*' }).first())?.n), 20);
});

test("a row the database refuses fails alone: the others' rows are committed", async () => {
  const outcomes = await Promise.allSettled([
    insert.submit({ id: 101, body: 'fine' }),
    insert.submit({ id: 102, body: null }),
    insert.submit({ id: 103, body: 'also fine' }),
  ]);
  assert.deepEqual(outcomes.map((outcome) => outcome.status), ['fulfilled', 'rejected', 'fulfilled']);
  assert.match(String((outcomes[1] as PromiseRejectedResult).reason), /null value in column "body"/);
  assert.deepEqual((await database.db('notes').whereIn('id', [101, 102, 103]).orderBy('id')).map((row) => row.id), [101, 103]);
});

test('strings are made storable: a NUL in a row does not fail the batch', async () => {
  await insert.submit({ id: 201, body: 'a\u0000b' });
  assert.equal((await database.db('notes').where({ id: 201 }).first())?.body, 'a\uFFFDb');
});

test('rows of one key never share a statement: an upsert touching one row twice still commits both, in order', async () => {
  await database.db.raw('CREATE TABLE counters (name text PRIMARY KEY, value int NOT NULL)');
  const upsert = new BatchedStatement<{ name: string; value: number }>(database.db, {
    name: 'test-upsert-counters',
    sql: `INSERT INTO counters (name, value) SELECT name, value FROM jsonb_to_recordset(?::jsonb) AS x(name text, value int)
          ON CONFLICT (name) DO UPDATE SET value = excluded.value`,
    toRow: (counter) => counter,
    keyOf: (counter) => counter.name,
  });
  let outcomes: PromiseSettledResult<void>[] = [];
  const statements = await statementsDuring(async () => {
    outcomes = await Promise.allSettled([
      upsert.submit({ name: 'a', value: 1 }),
      upsert.submit({ name: 'b', value: 1 }),
      upsert.submit({ name: 'a', value: 2 }),
      upsert.submit({ name: 'c', value: 1 }),
      upsert.submit({ name: 'a', value: 3 }),
    ]);
  });
  // Without the key, one statement would touch "a" three times, which Postgres refuses.
  assert.deepEqual(outcomes.map((outcome) => outcome.status), ['fulfilled', 'fulfilled', 'fulfilled', 'fulfilled', 'fulfilled']);
  assert.equal(statements, 3);
  const rows = await database.db('counters').orderBy('name');
  assert.deepEqual(rows, [{ name: 'a', value: 3 }, { name: 'b', value: 1 }, { name: 'c', value: 1 }]);
});
