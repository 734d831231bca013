import { AppError } from '../../errors/app-error.ts';
import type { MemorySchema, MemoryScope } from './memory-definition.ts';
import { checkTtlSeconds, normalizeMemorySchema } from './memory-schema-rules.ts';
import { MAX_NAME_LENGTH, slugify, slugProblem } from './slugify.ts';

/**
 * What a caller sends to create a definition. `ttlSeconds` and `schema` are `unknown` on purpose:
 * the rules below check them and answer with the memory codes, not a generic validation error.
 */
export interface MemoryDefinitionInput {
  name: string;
  /** Derived from the name when absent. */
  slug?: string;
  scope: MemoryScope;
  /** `null` or absent means permanent. */
  ttlSeconds?: unknown;
  schema: unknown;
}

/** The fields an update may change; absent fields stay as they are. */
export type MemoryDefinitionPatch = Partial<MemoryDefinitionInput>;

/** Checked values, named after the `memory_definitions` columns. */
export interface DefinitionColumns {
  name: string;
  slug: string;
  scope: MemoryScope;
  ttl_seconds: number | null;
  schema: MemorySchema;
}

/** Applies every definition rule to a create request; throws the matching 422 code. */
export function checkCreateInput(input: MemoryDefinitionInput): DefinitionColumns {
  const name = checkName(input.name);
  return {
    name,
    slug: input.slug === undefined ? slugFromName(name) : checkSlug(input.slug),
    scope: input.scope,
    ttl_seconds: checkTtlSeconds(input.ttlSeconds),
    schema: normalizeMemorySchema(input.schema),
  };
}

/**
 * Applies the rules to the fields a patch carries. A new name does not regenerate the slug:
 * workflows refer to the slug, so it only changes when asked for.
 */
export function checkPatch(patch: MemoryDefinitionPatch): Partial<DefinitionColumns> {
  const columns: Partial<DefinitionColumns> = {};
  if (patch.name !== undefined) columns.name = checkName(patch.name);
  if (patch.slug !== undefined) columns.slug = checkSlug(patch.slug);
  if (patch.scope !== undefined) columns.scope = patch.scope;
  if (patch.ttlSeconds !== undefined) columns.ttl_seconds = checkTtlSeconds(patch.ttlSeconds);
  if (patch.schema !== undefined) columns.schema = normalizeMemorySchema(patch.schema);
  return columns;
}

/** Names are trimmed: "Profile " and "Profile" would otherwise look identical in the list. */
function checkName(name: string): string {
  const trimmed = name.trim();
  if (trimmed.length === 0 || trimmed.length > MAX_NAME_LENGTH) {
    throw new AppError('BOT_ERR_MEMORY_NAME_INVALID', `The name must have 1 to ${MAX_NAME_LENGTH} characters`, {
      field: 'name',
    });
  }
  return trimmed;
}

function checkSlug(slug: string): string {
  const problem = slugProblem(slug);
  if (problem) throw new AppError('BOT_ERR_MEMORY_SLUG_INVALID', problem, { field: 'slug', slug });
  return slug;
}

function slugFromName(name: string): string {
  const slug = slugify(name);
  if (slug === '') {
    throw new AppError('BOT_ERR_MEMORY_SLUG_INVALID', `No slug can be derived from the name "${name}"; give one`, {
      field: 'slug',
    });
  }
  return slug;
}
