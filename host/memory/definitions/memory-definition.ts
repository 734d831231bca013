import { z } from 'zod';

export const MEMORY_SCOPES = ['global', 'workflow', 'thread', 'run'] as const;
export type MemoryScope = (typeof MEMORY_SCOPES)[number];

/** A JSON Schema object as stored; its shape is checked by the definition rules, not by zod. */
export type MemorySchema = Record<string, unknown>;

/** A memory definition as the API returns it and the record store reads it. */
export interface MemoryDefinition {
  id: string;
  name: string;
  slug: string;
  scope: MemoryScope;
  /** `null` means permanent. */
  ttlSeconds: number | null;
  schema: MemorySchema;
  createdAt: string;
  updatedAt: string;
}

export const memoryDefinitionSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  slug: z.string(),
  scope: z.enum(MEMORY_SCOPES),
  ttlSeconds: z.number().int().positive().nullable(),
  schema: z.record(z.string(), z.unknown()),
  createdAt: z.string(),
  updatedAt: z.string(),
});

export interface MemoryDefinitionRow {
  id: string;
  name: string;
  slug: string;
  scope: MemoryScope;
  ttl_seconds: number | null;
  schema: MemorySchema;
  created_at: Date;
  updated_at: Date;
}

export function toMemoryDefinition(row: MemoryDefinitionRow): MemoryDefinition {
  return {
    id: row.id,
    name: row.name,
    slug: row.slug,
    scope: row.scope,
    ttlSeconds: row.ttl_seconds,
    schema: row.schema,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}
