import { z } from 'zod';
import type { ValueError } from './memory-value-validator.ts';

/**
 * Who a memory read or write is for: always an owner (the subscriber), plus the workflow, thread
 * and run the caller is in. Which of those ids matter depends on each definition's scope.
 */
export interface MemoryTarget {
  ownerId: string;
  workflowId?: string;
  threadId?: string;
  runId?: string;
}

/** A stored memory record as the admin API returns it; times are ISO strings. */
export interface MemoryRecord {
  id: string;
  definitionId: string;
  slug: string;
  ownerId: string;
  workflowId: string | null;
  threadId: string | null;
  runId: string | null;
  value: unknown;
  /** `null` when the definition is permanent. */
  expiresAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export const memoryRecordSchema = z.object({
  id: z.uuid(),
  definitionId: z.uuid(),
  slug: z.string(),
  ownerId: z.string(),
  workflowId: z.string().nullable(),
  threadId: z.string().nullable(),
  runId: z.string().nullable(),
  value: z.unknown(),
  expiresAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

/**
 * A record as the admin list shows it: whether its value still matches the definition's current
 * schema, which decides whether runs load it, and if not, why.
 */
export interface ListedMemoryRecord extends MemoryRecord {
  valid: boolean;
  /** Present only when `valid` is false. */
  errors?: ValueError[];
}

export const listedMemoryRecordSchema = memoryRecordSchema.extend({
  valid: z.boolean().describe("Whether the value matches its definition's current schema; an invalid value is not loaded into runs"),
  errors: z
    .array(z.object({ path: z.string().describe('JSON pointer into the value'), message: z.string() }))
    .optional()
    .describe('Why the value does not match, present only when `valid` is false'),
});

/** A `memory_records` row joined with its definition's slug. */
export interface MemoryRecordRow {
  id: string;
  definition_id: string;
  slug: string;
  owner_id: string;
  workflow_id: string | null;
  thread_id: string | null;
  run_id: string | null;
  value: unknown;
  expires_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export function toMemoryRecord(row: MemoryRecordRow): MemoryRecord {
  return {
    id: row.id,
    definitionId: row.definition_id,
    slug: row.slug,
    ownerId: row.owner_id,
    workflowId: row.workflow_id,
    threadId: row.thread_id,
    runId: row.run_id,
    value: row.value,
    expiresAt: row.expires_at?.toISOString() ?? null,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}
