import { z } from 'zod';
import { listQuerySchema, pageSchema } from '../../http/list-query.ts';
import { defineRoute, type RouteDefinition } from '../../http/route-definition.ts';
import { listedMemoryRecordSchema, memoryRecordSchema } from './memory-record.ts';
import { MEMORY_RECORD_SORTS, type MemoryRecordStore } from './memory-record-store.ts';

const ownerIdSchema = z.string().min(1).max(200);

const listQuery = listQuerySchema(MEMORY_RECORD_SORTS, '-updatedAt').extend({
  definitionId: z.uuid().optional().describe('Only records of this memory definition'),
  ownerId: ownerIdSchema.optional().describe('Only records of this owner (subscriber)'),
});

export function memoryRecordRoutes(deps: { records: MemoryRecordStore }): RouteDefinition[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/api/memory-records',
      operationId: 'listMemoryRecords',
      summary: 'List live memory records (default: most recently updated first; q searches the slug and owner); expired ones are never listed',
      tag: 'memory',
      permission: 'memory_record:read',
      query: listQuery,
      success: {
        status: 200,
        description: 'A page of memory records, each saying whether its value still matches the current schema',
        schema: pageSchema(listedMemoryRecordSchema),
      },
      handle: ({ query }) => deps.records.list(query),
    }),
    defineRoute({
      method: 'GET',
      path: '/api/memory-records/:id',
      operationId: 'getMemoryRecord',
      summary: 'Read one live memory record',
      tag: 'memory',
      permission: 'memory_record:read',
      params: z.object({ id: z.uuid() }),
      success: { status: 200, description: 'The record', schema: memoryRecordSchema },
      errors: [404],
      handle: ({ params }) => deps.records.get(params.id),
    }),
    defineRoute({
      method: 'PUT',
      path: '/api/memory-records/:id',
      operationId: 'updateMemoryRecord',
      summary: "Replace one live memory record's value, checked against its definition's current JSON Schema (422 BOT_ERR_MEMORY_VALUE_INVALID); the expiry restarts as on any write",
      tag: 'memory',
      permission: 'memory_record:update',
      params: z.object({ id: z.uuid() }),
      body: z.object({ value: z.unknown().describe('The whole new value') }).strict(),
      success: { status: 200, description: 'The record as written', schema: memoryRecordSchema },
      errors: [404],
      handle: ({ params, body }) => deps.records.replaceValue(params.id, body.value),
    }),
    defineRoute({
      method: 'DELETE',
      path: '/api/memory-records/:id',
      operationId: 'deleteMemoryRecord',
      summary: 'Delete one memory record',
      tag: 'memory',
      permission: 'memory_record:delete',
      params: z.object({ id: z.uuid() }),
      success: { status: 204, description: 'Deleted' },
      errors: [404],
      handle: ({ params }) => deps.records.delete(params.id),
    }),
    defineRoute({
      method: 'DELETE',
      path: '/api/subscribers/:id/memory',
      operationId: 'eraseSubscriberMemory',
      summary: "Erase all of one subscriber's memory (right to be forgotten)",
      tag: 'memory',
      permission: 'memory_record:delete',
      params: z.object({ id: ownerIdSchema }),
      success: { status: 200, description: 'How many records were deleted', schema: z.object({ deleted: z.number().int() }) },
      handle: async ({ params }) => ({ deleted: await deps.records.eraseOwner(params.id) }),
    }),
  ];
}
