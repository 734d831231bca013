import type { Knex } from 'knex';
import { z } from 'zod';
import { fetchSortedPage, isUuid, whereUuid } from '../db/fetch-sorted-page.ts';
import { AppError } from '../errors/app-error.ts';
import { listQuerySchema, pageSchema } from '../http/list-query.ts';
import { defineRoute, type RouteDefinition } from '../http/route-definition.ts';
import { INBOX_CHANNEL } from '../inbox/inbox-notice.ts';

const TAG = 'inbound-events';
const STATUSES = ['queued', 'running', 'done', 'skipped', 'failed'] as const;
const SORT_SQL = { receivedAt: 'received_at', status: 'status', attempts: 'attempts' };

const inboundEventSchema = z.object({
  id: z.uuid(),
  sourceId: z.uuid(),
  eventId: z.string(),
  workflowId: z.string().nullable(),
  senderForeignId: z.string().nullable(),
  status: z.enum(STATUSES).describe('`failed` events are dead letters: every retry was used'),
  reason: z.string().nullable().describe('Why it was skipped, or the last error'),
  attempts: z.number().int(),
  receivedAt: z.string(),
});

const listQuery = listQuerySchema(['receivedAt', 'status', 'attempts'], '-receivedAt').extend({
  status: z.enum(STATUSES).optional(),
  sourceId: z.string().optional(),
});

interface InboundEventRow {
  id: string;
  source_id: string;
  event_id: string;
  workflow_id: string | null;
  sender_foreign_id: string | null;
  status: (typeof STATUSES)[number];
  reason: string | null;
  attempts: number;
  received_at: Date;
}

/** The inbox as admins see it: every event with its status; dead letters can be retried. */
export function inboundEventRoutes({ db }: { db: Knex }): RouteDefinition[] {
  return [
    defineRoute({
      method: 'GET', path: '/api/inbound-events', operationId: 'listInboundEvents', tag: TAG, permission: 'inbox:read',
      summary: 'Inbound events with their processing status; filter `status=failed` for dead letters',
      query: listQuery,
      success: { status: 200, description: 'One page and the total', schema: pageSchema(inboundEventSchema) },
      async handle({ query }) {
        const filtered = db('inbound_events').modify((builder) => {
          if (query.status) builder.where({ status: query.status });
          if (query.sourceId !== undefined) whereUuid(builder, 'source_id', query.sourceId);
          if (query.q) builder.where('event_id', query.q);
        });
        const page = await fetchSortedPage<InboundEventRow>(filtered, { sortSql: SORT_SQL, fallback: 'received_at', ...query });
        return { items: page.items.map(toView), total: page.total };
      },
    }),
    defineRoute({
      method: 'POST', path: '/api/inbound-events/:id/retry', operationId: 'retryInboundEvent', tag: TAG, permission: 'inbox:update',
      summary: 'Run a failed (dead-letter) or skipped event again, with a fresh set of attempts',
      params: z.object({ id: z.string() }),
      errors: [404, 409],
      success: { status: 200, description: 'The event, queued again', schema: inboundEventSchema },
      async handle({ params }) {
        if (!isUuid(params.id)) throw new AppError('BOT_ERR_INBOUND_EVENT_NOT_FOUND', 'No inbound event has this id');
        return db.transaction(async (trx) => {
          const current: InboundEventRow | undefined = await trx('inbound_events').where({ id: params.id }).forUpdate().first();
          if (!current) throw new AppError('BOT_ERR_INBOUND_EVENT_NOT_FOUND', 'No inbound event has this id');
          if (current.status !== 'failed' && current.status !== 'skipped') {
            throw new AppError('BOT_ERR_INBOUND_EVENT_NOT_RETRYABLE', `Only failed or skipped events can be retried; this one is ${current.status}`);
          }
          const [updated]: InboundEventRow[] = await trx('inbound_events')
            .where({ id: params.id })
            .update({ status: 'queued', reason: null, attempts: 0, claim_token: null, retry_at: null })
            .returning('*');
          // The inbox is the queue: queued again, the event only needs a dispatcher woken (at commit).
          await trx.raw('SELECT pg_notify(?, ?)', [INBOX_CHANNEL, updated!.id]);
          return toView(updated!);
        });
      },
    }),
  ];
}

function toView(row: InboundEventRow): z.input<typeof inboundEventSchema> {
  return {
    id: row.id,
    sourceId: row.source_id,
    eventId: row.event_id,
    workflowId: row.workflow_id,
    senderForeignId: row.sender_foreign_id,
    status: row.status,
    reason: row.reason,
    attempts: row.attempts,
    receivedAt: row.received_at.toISOString(),
  };
}
