import { isExpression } from '../expressions/compile-expression.ts';
import type { FoundProblem } from './workflow-problem.ts';
import type { WorkflowParts } from './workflow-parts.ts';
import type { KnownDefinitions } from './known-memory-definitions.ts';

export type { MemoryDefinitionLookup } from './known-memory-definitions.ts';

/**
 * Memory defs name existing memory definitions (`settings.definition_id`), and direct
 * `update_memory` tasks write known slugs, of global memory or of memory a def declares (a run
 * reads nothing else), judged on the definitions {@link loadKnownDefinitions} found. An id that
 * is a slug gets a hint naming the id to use instead.
 */
export function checkMemoryReferences(parts: WorkflowParts, known: KnownDefinitions): FoundProblem[] {
  const writes = updateMemoryWrites(parts);
  return [
    ...writes.problems,
    ...[...parts.memories].flatMap(([name, memory]) => definitionIdProblems(name, memory.settings.definition_id, known)),
    ...writes.slugs.flatMap(({ task, slug }) => writtenSlugProblems(task, slug, known)),
  ];
}

/** The slugs `update_memory` tasks write, for the definitions to look up. */
export function writtenSlugs(parts: WorkflowParts): string[] {
  return updateMemoryWrites(parts).slugs.map(({ slug }) => slug);
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
