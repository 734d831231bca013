import pg from 'pg';

/**
 * How many statements `work` sends to PostgreSQL: counted where every query of the process goes
 * out, pg's `Client.query` (knex's builder and PreparedStatement both end there), not from an
 * event the code under test could skip. Tests in a file run one at a time, so nothing else counts.
 * @example assert.equal((await countStatements(() => openRunMemory(run, dependencies))).count, 1)
 */
export async function countStatements<T>(work: () => Promise<T>): Promise<{ count: number; result: PromiseSettledResult<T> }> {
  const prototype = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const query = prototype.query;
  let count = 0;
  prototype.query = function counted(this: unknown, ...args: unknown[]) {
    count += 1;
    return query.apply(this, args);
  };
  try {
    const [result] = await Promise.allSettled([work()]);
    return { count, result: result! };
  } finally {
    prototype.query = query;
  }
}
