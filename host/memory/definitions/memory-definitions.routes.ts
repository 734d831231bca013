import { z } from 'zod';
import { listQuerySchema, pageSchema } from '../../http/list-query.ts';
import { defineRoute, type RouteDefinition } from '../../http/route-definition.ts';
import { MEMORY_SCOPES, memoryDefinitionSchema } from './memory-definition.ts';
import { MEMORY_DEFINITION_SORTS, type MemoryDefinitionStore } from './memory-definition-store.ts';
import { MAX_TTL_SECONDS } from './memory-schema-rules.ts';
import { MAX_NAME_LENGTH, MAX_SLUG_LENGTH } from './slugify.ts';

const BASE = '/api/memory-definitions';
const TAG = 'memory definitions';

// `ttlSeconds` and `schema` are accepted as any JSON here and checked by the definition rules,
// so a bad value gets its specific code (BOT_ERR_MEMORY_TTL_INVALID, _SCHEMA_INVALID) and reason.
// The `meta` only tells OpenAPI readers what is expected.
const definitionFields = {
  name: z.string().describe(`Unique human-readable label, 1-${MAX_NAME_LENGTH} characters`),
  slug: z.string().describe(`Unique key used by workflows: a-z, 0-9 and _, at most ${MAX_SLUG_LENGTH} characters`),
  scope: z.enum(MEMORY_SCOPES).describe('Which identity a record has besides its owner'),
  ttlSeconds: z.unknown().meta({
    type: ['integer', 'null'],
    minimum: 1,
    maximum: MAX_TTL_SECONDS,
    description: 'Seconds a record lives after each write; null or absent means permanent',
  }),
  schema: z.unknown().meta({
    type: 'object',
    description: 'JSON object schema: named properties each with a type and description; additionalProperties false',
  }),
};

/** The body that creates a definition; also published as `schemas/memory-definition.schema.json`. */
export const createMemoryDefinitionBody = z
  .object({ ...definitionFields, slug: definitionFields.slug.optional(), ttlSeconds: definitionFields.ttlSeconds.optional() })
  .strict();
const patchBody = z.object(definitionFields).partial().strict();
const idParams = z.object({ id: z.string().describe('Memory definition id (a uuid; anything else is not found)') });
const listQuery = listQuerySchema(MEMORY_DEFINITION_SORTS, 'name').extend({
  scope: z.enum(MEMORY_SCOPES).optional().describe('Only definitions with this scope'),
});
const slugCheckQuery = z
  .object({
    name: z.string().optional().describe('Check the slug generated from this name'),
    slug: z.string().optional().describe('Check this slug as given'),
    excludeId: z.string().optional().describe('The definition being edited: its own slug counts as available'),
  })
  .refine((query) => (query.name === undefined) !== (query.slug === undefined), 'Give exactly one of name or slug');
const slugCheckResult = z.object({ slug: z.string(), valid: z.boolean(), available: z.boolean() });

/** The admin API for memory definitions. */
export function memoryDefinitionRoutes({ definitions }: { definitions: MemoryDefinitionStore }): RouteDefinition[] {
  return [
    defineRoute({
      method: 'GET',
      path: BASE,
      operationId: 'listMemoryDefinitions',
      summary: 'List memory definitions, searching name and slug, filtered by scope',
      tag: TAG,
      permission: 'memory_definition:read',
      query: listQuery,
      success: { status: 200, description: 'One page and the total', schema: pageSchema(memoryDefinitionSchema) },
      handle: ({ query }) => definitions.list(query),
    }),
    defineRoute({
      method: 'POST',
      path: BASE,
      operationId: 'createMemoryDefinition',
      summary: 'Create a memory definition; the slug is generated from the name when absent',
      tag: TAG,
      permission: 'memory_definition:create',
      body: createMemoryDefinitionBody,
      success: { status: 201, description: 'The new definition', schema: memoryDefinitionSchema },
      errors: [409],
      handle: ({ body }) => definitions.create(body),
    }),
    // Registered before `/:id`, which would otherwise take "slug-check" for an id.
    defineRoute({
      method: 'GET',
      path: `${BASE}/slug-check`,
      operationId: 'checkMemorySlug',
      summary: 'Tell whether a slug (given, or generated from a name) is valid and free',
      tag: TAG,
      permission: 'memory_definition:read',
      query: slugCheckQuery,
      success: { status: 200, description: 'The slug and its status', schema: slugCheckResult },
      handle: ({ query }) => definitions.checkSlug(query.slug !== undefined ? { slug: query.slug } : { name: query.name! }, query.excludeId),
    }),
    defineRoute({
      method: 'GET',
      path: `${BASE}/:id`,
      operationId: 'getMemoryDefinition',
      summary: 'Read one memory definition',
      tag: TAG,
      permission: 'memory_definition:read',
      params: idParams,
      success: { status: 200, description: 'The definition', schema: memoryDefinitionSchema },
      errors: [404],
      handle: ({ params }) => definitions.get(params.id),
    }),
    defineRoute({
      method: 'PATCH',
      path: `${BASE}/:id`,
      operationId: 'updateMemoryDefinition',
      summary: 'Change fields of a memory definition; slug and scope are locked once records exist',
      tag: TAG,
      permission: 'memory_definition:update',
      params: idParams,
      body: patchBody,
      success: { status: 200, description: 'The updated definition', schema: memoryDefinitionSchema },
      errors: [404, 409],
      handle: ({ params, body }) => definitions.update(params.id, body),
    }),
    defineRoute({
      method: 'DELETE',
      path: `${BASE}/:id`,
      operationId: 'deleteMemoryDefinition',
      summary: 'Delete a memory definition and all its records; refused while a workflow binds it',
      tag: TAG,
      permission: 'memory_definition:delete',
      params: idParams,
      success: { status: 204, description: 'Deleted, with its records' },
      errors: [404, 409],
      handle: ({ params }) => definitions.delete(params.id),
    }),
  ];
}
