import type { Knex } from 'knex';
import type { MemoryScope } from '../../../host/memory/definitions/memory-definition.ts';

export interface TestDefinition {
  slug: string;
  scope?: MemoryScope;
  ttlSeconds?: number | null;
  properties?: Record<string, unknown>;
  required?: string[];
}

/** The schema most record tests use: a name and an optional age. */
export const PERSON_PROPERTIES = {
  name: { type: 'string', description: 'What the subscriber is called' },
  age: { type: 'integer', description: 'Age in years' },
};

/**
 * Inserts a memory definition row directly, so record tests do not depend on the definition
 * store; returns its id.
 */
export async function insertDefinition(db: Knex, definition: TestDefinition): Promise<string> {
  const schema = {
    type: 'object',
    properties: definition.properties ?? PERSON_PROPERTIES,
    ...(definition.required ? { required: definition.required } : {}),
    additionalProperties: false,
  };
  const [row] = await db('memory_definitions')
    .insert({
      name: `Definition ${definition.slug}`,
      slug: definition.slug,
      scope: definition.scope ?? 'global',
      ttl_seconds: definition.ttlSeconds ?? null,
      schema,
    })
    .returning('id');
  return (row as { id: string }).id;
}
