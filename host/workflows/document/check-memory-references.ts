import { isExpression } from '../expressions/compile-expression.ts';
import type { MemoryDefinition } from '../../memory/definitions/memory-definition.ts';
import type { FoundProblem } from './workflow-problem.ts';
import type { WorkflowParts } from './workflow-parts.ts';

/** What the checks need to know of memory definitions; the memory definition store is one. */
export interface MemoryDefinitionLookup {
  /** The definitions with these ids (ids that cannot be ids are simply not found). */
  findByIds(ids: readonly string[]): Promise<readonly DefinitionRef[]>;
  findBySlugs(slugs: readonly string[]): Promise<readonly DefinitionRef[]>;
}

type DefinitionRef = Pick<MemoryDefinition, 'id' | 'slug' | 'scope'>;

/**
 * Memory defs name existing memory definitions (`settings.definition_id`), and direct
 * `update_memory` tasks write known slugs, of global memory or of memory a def declares (a run
 * reads nothing else). Two queries for the whole document, whatever its size. An id that is a
 * slug gets a hint naming the id to use instead.
 */
export async function checkMemoryReferences(parts: WorkflowParts, lookup: MemoryDefinitionLookup): Promise<FoundProblem[]> {
  const declaredIds = new Set([...parts.memories.values()].map((memory) => memory.settings.definition_id));
  const writes = updateMemoryWrites(parts);
  // Ids are looked up as slugs too, so an id written as a slug gets a hint.
  const slugs = new Set([...writes.slugs.map(({ slug }) => slug), ...declaredIds]);
  const [byId, bySlug] = await Promise.all([
    declaredIds.size > 0 ? lookup.findByIds([...declaredIds]) : [],
    slugs.size > 0 ? lookup.findBySlugs([...slugs]) : [],
  ]);
  const known = { ids: new Set(byId.map(({ id }) => id)), bySlug: new Map(bySlug.map((definition) => [definition.slug, definition])), declaredIds };
  return [
    ...writes.problems,
    ...[...parts.memories].flatMap(([name, memory]) => definitionIdProblems(name, memory.settings.definition_id, known)),
    ...writes.slugs.flatMap(({ task, slug }) => writtenSlugProblems(task, slug, known)),
  ];
}

interface KnownDefinitions {
  ids: ReadonlySet<string>;
  bySlug: ReadonlyMap<string, DefinitionRef>;
  declaredIds: ReadonlySet<string>;
}

function definitionIdProblems(def: string, id: string, known: KnownDefinitions): FoundProblem[] {
  if (known.ids.has(id)) return [];
  const sameSlug = known.bySlug.get(id);
  const hint = sameSlug ? `; "${id}" is the slug of the definition whose id is "${sameSlug.id}"` : '';
  return [{
    path: ['defs', def, 'settings', 'definition_id'],
    code: 'BOT_ERR_WORKFLOW_MEMORY_DEFINITION_UNKNOWN',
    message: `No memory definition has the id "${id}"${hint}`,
  }];
}

function writtenSlugProblems(task: string, slug: string, known: KnownDefinitions): FoundProblem[] {
  const path = ['defs', task, 'inputs', 'memory', slug];
  const definition = known.bySlug.get(slug);
  if (!definition) return [{ path, code: 'BOT_ERR_MEMORY_SLUG_UNKNOWN', message: `No memory definition has the slug "${slug}"` }];
  if (definition.scope === 'global' || known.declaredIds.has(definition.id)) return [];
  return [{
    path,
    code: 'BOT_ERR_WORKFLOW_MEMORY_NOT_BOUND',
    message: `"${slug}" is ${definition.scope} memory: declare it with a \`kind: memory\` def whose definition_id is "${definition.id}"`,
  }];
}

/** The slugs `update_memory` tasks write when their `memory` input is a map (an expression is known only when it runs). */
function updateMemoryWrites(parts: WorkflowParts): { slugs: { task: string; slug: string }[]; problems: FoundProblem[] } {
  const slugs: { task: string; slug: string }[] = [];
  const problems: FoundProblem[] = [];
  for (const [task, def] of parts.tasks) {
    const memory = def.action === 'update_memory' ? def.inputs?.memory : undefined;
    if (memory === undefined || memory === null || isExpression(memory)) continue;
    if (typeof memory === 'object' && !Array.isArray(memory)) {
      slugs.push(...Object.keys(memory).map((slug) => ({ task, slug })));
    } else {
      problems.push({
        path: ['defs', task, 'inputs', 'memory'],
        code: 'BOT_ERR_WORKFLOW_SHAPE_INVALID',
        message: 'memory must map memory slugs to their complete new values, or be an expression',
      });
    }
  }
  return { slugs, problems };
}
