import type { MemoryDefinitionLookup } from '../../../host/workflows/document/check-memory-references.ts';
import type { MemorySchema, MemoryScope } from '../../../host/memory/definitions/memory-definition.ts';

export const PROFILE_ID = '11111111-1111-4111-8111-111111111111';
export const VISIT_ID = '22222222-2222-4222-8222-222222222222';

/**
 * Memory definitions for document tests that need no database: `profile` (global) and `visit`
 * (thread). Records how often it is asked, so tests can see the lookups are batched.
 */
export function fakeDefinitions(
  definitions: { id: string; slug: string; scope: MemoryScope; schema: MemorySchema }[] = [
    { id: PROFILE_ID, slug: 'profile', scope: 'global', schema: objectSchema({ name: { type: 'string', description: 'Name' } }) },
    { id: VISIT_ID, slug: 'visit', scope: 'thread', schema: objectSchema({ count: { type: 'integer', description: 'Visits' } }) },
  ],
): MemoryDefinitionLookup & { calls: number } {
  return {
    calls: 0,
    async findByIds(ids) {
      this.calls += 1;
      return definitions.filter(({ id }) => ids.includes(id));
    },
    async findBySlugs(slugs) {
      this.calls += 1;
      return definitions.filter(({ slug }) => slugs.includes(slug));
    },
  };
}

/** A memory schema as the definition rules normalise it: every field listed, no others allowed. */
export function objectSchema(properties: Record<string, unknown>): MemorySchema {
  return { type: 'object', properties, additionalProperties: false };
}
