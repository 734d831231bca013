import type { Knex } from 'knex';

/**
 * The SQL of every statement `db` sends while `action` runs: how a test sees that concurrent
 * writes shared one statement. Anything else the file runs meanwhile is counted too, so call it
 * where nothing else of the file is in flight (node:test runs a file's tests one at a time).
 * @example assert.equal((await statementsDuring(db, () => Promise.all(writes))).length, 1);
 */
export async function statementsDuring(db: Knex, action: () => Promise<unknown>): Promise<string[]> {
  const statements: string[] = [];
  const record = (query: { sql: string }) => statements.push(query.sql);
  db.on('query', record);
  try {
    await action();
  } finally {
    db.off('query', record);
  }
  return statements;
}
