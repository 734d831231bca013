import type { Knex } from 'knex';
import { isUuid } from '../../db/fetch-sorted-page.ts';
import { PreparedStatement } from '../../db/prepared-statement.ts';
import { AppError } from '../../errors/app-error.ts';
import type { MemoryDef, WorkflowDocument } from '../document/workflow-document.ts';
import type { BoundMemoryDefinition } from '../runtime/action.ts';

// Every run with memory asks this: prepared once per connection (see PreparedStatement).
const FIND_DEFINITIONS = new PreparedStatement<BoundMemoryDefinition>(
  'run-memory-find-definitions',
  'SELECT id, name, slug, scope, schema FROM memory_definitions WHERE id = ANY(?::uuid[])',
);

/** A document's `kind: memory` defs with their definitions, by def name. */
export type MemoryDefsByName = ReadonlyMap<string, BoundMemoryDefinition>;

/**
 * Resolves the document's `kind: memory` defs to their memory definitions with one query, and
 * checks every `bindings.memory` name (the workflow's and each task's) names one of those defs.
 * Saving a workflow checks the same, but a definition can be deleted afterwards: the run then
 * fails before its first step rather than run without memory it was written for.
 * Throws BOT_ERR_WORKFLOW_MEMORY_DEFINITION_UNKNOWN or BOT_ERR_WORKFLOW_MEMORY_UNKNOWN.
 */
export async function resolveMemoryDefs(db: Knex, document: WorkflowDocument): Promise<MemoryDefsByName> {
  const memoryDefs = Object.entries(document.defs).filter((entry): entry is [string, MemoryDef] => entry[1].kind === 'memory');
  const definitions = await findDefinitions(db, memoryDefs.map(([, def]) => def.settings.definition_id));
  const byName = new Map<string, BoundMemoryDefinition>();
  for (const [name, def] of memoryDefs) {
    const definition = definitions.get(def.settings.definition_id);
    if (!definition) throw definitionUnknown(name, def.settings.definition_id);
    byName.set(name, definition);
  }
  assertBindingsKnown(document, byName);
  return byName;
}

async function findDefinitions(db: Knex, ids: string[]): Promise<Map<string, BoundMemoryDefinition>> {
  const validIds = [...new Set(ids)].filter(isUuid);
  if (validIds.length === 0) return new Map();
  const { rows } = await FIND_DEFINITIONS.run(db, [validIds]);
  return new Map(rows.map((row) => [row.id, row]));
}

function assertBindingsKnown(document: WorkflowDocument, byName: MemoryDefsByName): void {
  const bindingLists = [
    { owner: 'the workflow', names: document.bindings?.memory },
    ...Object.entries(document.defs).map(([name, def]) => ({ owner: `task "${name}"`, names: def.kind === 'task' ? def.bindings?.memory : undefined })),
  ];
  for (const { owner, names } of bindingLists) {
    const unknown = names?.find((name) => !byName.has(name));
    if (unknown !== undefined) {
      throw new AppError('BOT_ERR_WORKFLOW_MEMORY_UNKNOWN', `The memory binding "${unknown}" of ${owner} names no \`kind: memory\` def`, {
        binding: unknown,
      });
    }
  }
}

function definitionUnknown(defName: string, definitionId: string): AppError {
  return new AppError(
    'BOT_ERR_WORKFLOW_MEMORY_DEFINITION_UNKNOWN',
    `The memory def "${defName}" binds the definition "${definitionId}", which no longer exists`,
    { def: defName, definitionId },
  );
}
