import type { Knex } from 'knex';
import { uuidPrefixRange } from '../db/uuid-prefix-range.ts';
import { likePattern } from '../http/list-query.ts';
import { withoutNamePrefix } from '../conversations/subscriber-display-name.ts';

/** The longest search the runs list takes: enough for a sentence of an error, bounded for ILIKE. */
export const MAX_RUN_SEARCH_CHARS = 100;

/**
 * Narrows a `workflow_runs` query to the runs an operator means by `q`:
 * - a run id, or its first hex digits as the panel shows them (`3f2a1b2c`): that run, by the
 *   primary key (the prefix becomes a uuid range);
 * - a subscriber's id prefix, as in "Web visitor 3f2a": that subscriber's runs;
 * - text: the subscriber's name (from the platform, or a `name` a workflow remembered), a test
 *   owner (`test:ada`), or the error's code or message.
 * Every value is a bound parameter. Name and error matches scan (`%text%` cannot use a btree);
 * the other filters and the page limit bound what they scan.
 * @example db('workflow_runs').modify((builder) => whereRunMatches(db, builder, 'could not be reached'))
 */
export function whereRunMatches(db: Knex, builder: Knex.QueryBuilder, q: string): void {
  const pattern = likePattern(q);
  const range = uuidPrefixRange(withoutNamePrefix(q));
  builder.where((where) => {
    if (range) {
      where.whereBetween('id', range);
      where.orWhereIn('owner_id', (sub) => sub.from('subscribers').whereBetween('id', range).select(db.raw('id::text')));
    }
    where.orWhereIn('owner_id', (sub) =>
      sub
        .from('subscribers')
        .whereILike('first_name', pattern)
        .orWhereILike('last_name', pattern)
        .orWhereRaw(`(first_name || ' ' || last_name) ILIKE ?`, [pattern])
        .select(db.raw('id::text')),
    );
    where.orWhereIn('owner_id', (sub) => sub.from('memory_records').whereRaw(`jsonb_typeof(value->'name') = 'string' AND value->>'name' ILIKE ?`, [pattern]).select('owner_id'));
    where.orWhereILike('owner_id', pattern);
    where.orWhereRaw(`error->>'code' ILIKE ?`, [pattern]).orWhereRaw(`error->>'message' ILIKE ?`, [pattern]);
  });
}
