import { z } from 'zod';
import { listQuerySchema, pageSchema } from '../../http/list-query.ts';
import { defineRoute, type RouteDefinition } from '../../http/route-definition.ts';
import { listedMemoryRecordSchema } from './memory-record.ts';
import { MEMORY_RECORD_SORTS, type MemoryRecordStore } from './memory-record-store.ts';
import { testOwnerId, testOwnerNameSchema } from './test-owner.ts';

const TAG = 'memory';

const ownerQuery = z.object({
  ownerId: testOwnerNameSchema.optional().describe("The test owner's name, as a test run takes it: records of `test:<ownerId>` (default: the caller's token subject)"),
});

/**
 * The memory of test owners, for whoever may run tests (`run:create`): what test runs remembered,
 * and a reset. The owner is always `test:` and the name given, so these routes cannot read or
 * erase a subscriber's memory, which takes `memory_record` permissions.
 */
export function testMemoryRoutes({ records }: { records: MemoryRecordStore }): RouteDefinition[] {
  return [
    defineRoute({
      method: 'GET', path: '/api/test-memory', operationId: 'listTestMemory', tag: TAG, permission: 'run:create',
      summary: "A test owner's live memory records (the memory test runs read and write), most recently updated first",
      query: listQuerySchema(MEMORY_RECORD_SORTS, '-updatedAt').extend(ownerQuery.shape),
      success: { status: 200, description: 'A page of the test owner’s records', schema: pageSchema(listedMemoryRecordSchema) },
      handle: ({ query, principal }) => records.list({ ...query, ownerId: testOwnerId(query.ownerId, principal), owners: 'test' }),
    }),
    defineRoute({
      method: 'DELETE', path: '/api/test-memory', operationId: 'resetTestMemory', tag: TAG, permission: 'run:create',
      summary: "Reset a test owner: deletes all its memory records, so the next test run starts as a new subscriber's would",
      query: ownerQuery,
      success: { status: 200, description: 'How many records were deleted', schema: z.object({ deleted: z.number().int() }) },
      handle: async ({ query, principal }) => ({ deleted: await records.eraseOwner(testOwnerId(query.ownerId, principal)) }),
    }),
  ];
}
