import type { Knex } from 'knex';
import { z } from 'zod';
import { fetchSortedPage, isUuid, whereUuid } from '../db/fetch-sorted-page.ts';
import { AppError } from '../errors/app-error.ts';
import { uuidPrefixRange } from '../db/uuid-prefix-range.ts';
import { likePattern, listQuerySchema, pageSchema } from '../http/list-query.ts';
import { defineRoute, type RouteDefinition } from '../http/route-definition.ts';
import { storedNameSql, subscriberDisplayName, withoutNamePrefix } from './subscriber-display-name.ts';
import type { SubscriberRow } from './subscriber-store.ts';

const TAG = 'subscribers';
const SORT_SQL = { createdAt: 'created_at', updatedAt: 'updated_at', firstName: 'first_name' };

const subscriberSchema = z.object({
  id: z.uuid(),
  sourceId: z.uuid(),
  foreignId: z.string().describe("The platform's id of the user"),
  firstName: z.string(),
  lastName: z.string(),
  displayName: z.string().describe('How the panel names them: the platform\'s name, else a `name` a workflow remembered, else "Web visitor 3f2a" (live chat) or "Subscriber 3f2a"'),
  channel: z.string().nullable().describe("Their source's channel"),
  data: z.record(z.string(), z.unknown()).describe("The rest of the channel's SubscriberCreateDto"),
  createdAt: z.string(),
  updatedAt: z.string(),
});

const idParams = z.object({ id: z.string() });

/** A subscriber row with what its display name needs: the source's channel and a remembered name. */
type NamedSubscriberRow = SubscriberRow & { channel: string | null; stored_name: string | null };

/**
 * Subscribers as admins see them. Deleting one erases them entirely: their memory
 * (owned by their id, whatever the scope), threads and message history go with them.
 */
export function subscriberRoutes({ db }: { db: Knex }): RouteDefinition[] {
  // `s.*` and the two columns the display name needs (see subscriber-display-name.ts).
  const named = () => db('subscribers as s').leftJoin('sources as src', 'src.id', 's.source_id').select('s.*', 'src.channel', storedNameSql(db));
  const find = async (id: string): Promise<NamedSubscriberRow> => {
    const row: NamedSubscriberRow | undefined = isUuid(id) ? await named().where('s.id', id).first() : undefined;
    if (!row) throw new AppError('BOT_ERR_SUBSCRIBER_NOT_FOUND', 'No subscriber has this id');
    return row;
  };
  return [
    defineRoute({
      method: 'GET', path: '/api/subscribers', operationId: 'listSubscribers', tag: TAG, permission: 'subscriber:read',
      summary: 'Subscribers; q searches names (also a `name` a workflow remembered), the platform id and the first digits of the id; sourceId filters',
      query: listQuerySchema(['createdAt', 'updatedAt', 'firstName'], '-createdAt').extend({ sourceId: z.string().optional() }),
      success: { status: 200, description: 'One page and the total', schema: pageSchema(subscriberSchema) },
      async handle({ query }) {
        const filtered = db('subscribers').modify((builder) => {
          if (query.sourceId !== undefined) whereUuid(builder, 'source_id', query.sourceId);
          if (query.q) {
            const pattern = likePattern(query.q);
            const range = uuidPrefixRange(withoutNamePrefix(query.q));
            builder.where((where) => {
              where.whereILike('first_name', pattern).orWhereILike('last_name', pattern).orWhereILike('foreign_id', pattern);
              if (range) where.orWhereBetween('id', range);
              // The name a workflow remembered, which the display name may be.
              where.orWhereRaw(`id::text IN (SELECT owner_id FROM memory_records WHERE jsonb_typeof(value->'name') = 'string' AND value->>'name' ILIKE ?)`, [pattern]);
            });
          }
        });
        const page = await fetchSortedPage<SubscriberRow>(filtered, { sortSql: SORT_SQL, fallback: 'created_at', ...query });
        // The page's names in a second statement: fetchSortedPage counts the same builder it selects from.
        const rows: NamedSubscriberRow[] = page.items.length === 0 ? [] : await named().whereIn('s.id', page.items.map((row) => row.id));
        const byId = new Map(rows.map((row) => [row.id, row]));
        return { items: page.items.flatMap((row) => (byId.has(row.id) ? [toView(byId.get(row.id)!)] : [])), total: page.total };
      },
    }),
    defineRoute({
      method: 'GET', path: '/api/subscribers/:id', operationId: 'getSubscriber', tag: TAG, permission: 'subscriber:read',
      summary: 'A subscriber', params: idParams, errors: [404],
      success: { status: 200, description: 'The subscriber', schema: subscriberSchema },
      handle: async ({ params }) => toView(await find(params.id)),
    }),
    defineRoute({
      method: 'DELETE', path: '/api/subscribers/:id', operationId: 'deleteSubscriber', tag: TAG, permission: 'subscriber:delete',
      summary: 'Erase a subscriber (right to be forgotten): their memory, threads, history, runs and replies go too; their inbound events keep only their ids',
      params: idParams, errors: [404],
      success: { status: 204, description: 'Erased' },
      async handle({ params }) {
        const subscriber = await find(params.id);
        await db.transaction(async (trx) => {
          const threads = trx('threads').where({ subscriber_id: subscriber.id }).select('id');
          await trx('memory_records').where({ owner_id: subscriber.id }).delete();
          await trx('outbound_messages').whereIn('thread_id', threads).delete();
          // Runs go with their steps (their inputs and outputs hold what the subscriber said).
          await trx('workflow_runs').where({ owner_id: subscriber.id }).delete();
          // Inbound events stay as ids, so a platform retry is still recognised, but lose their content.
          await trx('inbound_events')
            .where({ source_id: subscriber.source_id, sender_foreign_id: subscriber.foreign_id })
            .update({ event: JSON.stringify({ erased: true }) });
          // Threads and their messages go by cascade.
          await trx('subscribers').where({ id: subscriber.id }).delete();
        });
      },
    }),
  ];
}

function toView(row: NamedSubscriberRow): z.input<typeof subscriberSchema> {
  return {
    id: row.id,
    sourceId: row.source_id,
    foreignId: row.foreign_id,
    firstName: row.first_name,
    lastName: row.last_name,
    displayName: subscriberDisplayName({ id: row.id, firstName: row.first_name, lastName: row.last_name, storedName: row.stored_name, channel: row.channel }),
    channel: row.channel,
    data: row.data,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}
