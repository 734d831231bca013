import type { MemoryDefinition } from '../../memory/definitions/memory-definition.ts';
import type { WorkflowParts } from './workflow-parts.ts';

/** What the checks need to know of memory definitions; the memory definition store is one. */
export interface MemoryDefinitionLookup {
  /** The definitions with these ids (ids that cannot be ids are simply not found). */
  findByIds(ids: readonly string[]): Promise<readonly DefinitionRef[]>;
  findBySlugs(slugs: readonly string[]): Promise<readonly DefinitionRef[]>;
}

/** A memory definition as the checks read it: its JSON Schema says which fields expressions may read. */
export type DefinitionRef = Pick<MemoryDefinition, 'id' | 'slug' | 'scope' | 'schema'>;

/** The definitions a document names, by id (its memory defs) and by slug (the slugs it reads and writes). */
export interface KnownDefinitions {
  ids: ReadonlySet<string>;
  bySlug: ReadonlyMap<string, DefinitionRef>;
  /** The `definition_id`s the document's memory defs declare, found or not. */
  declaredIds: ReadonlySet<string>;
  /** The definitions the memory defs declare that exist, by slug. */
  declaredBySlug: ReadonlyMap<string, DefinitionRef>;
}

/**
 * Looks up every definition the document names in two queries, whatever its size: its memory
 * defs' ids, and the slugs it writes (`update_memory`) or reads (`$context.memory.<slug>`). Ids
 * are looked up as slugs too, so an id written as a slug gets a hint.
 *
 * @example
 * const known = await loadKnownDefinitions(parts, store, ['profile']);
 * known.bySlug.get('profile')?.schema;
 */
export async function loadKnownDefinitions(parts: WorkflowParts, lookup: MemoryDefinitionLookup, slugsNamed: Iterable<string>): Promise<KnownDefinitions> {
  const declaredIds = new Set([...parts.memories.values()].map((memory) => memory.settings.definition_id));
  const slugs = new Set([...slugsNamed, ...declaredIds]);
  const [byId, bySlug] = await Promise.all([
    declaredIds.size > 0 ? lookup.findByIds([...declaredIds]) : [],
    slugs.size > 0 ? lookup.findBySlugs([...slugs]) : [],
  ]);
  return {
    ids: new Set(byId.map(({ id }) => id)),
    bySlug: new Map([...byId, ...bySlug].map((definition) => [definition.slug, definition])),
    declaredIds,
    declaredBySlug: new Map(byId.map((definition) => [definition.slug, definition])),
  };
}

/**
 * The definition `$context.memory.<slug>` reads in a run: a global one, or one a memory def
 * declares (the run loads nothing else); undefined otherwise. A def whose `definition_id` is the
 * slug counts as declaring it: that id is reported where it is written, not at every read.
 */
export function readableDefinition(known: KnownDefinitions, slug: string): DefinitionRef | undefined {
  const definition = known.bySlug.get(slug);
  const declared = definition && (known.declaredIds.has(definition.id) || known.declaredIds.has(definition.slug));
  return definition && (definition.scope === 'global' || declared) ? definition : undefined;
}
