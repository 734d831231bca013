import { isUuid } from '../../db/fetch-sorted-page.ts';
import { AppError } from '../../errors/app-error.ts';
import type { MemoryDef, WorkflowDocument } from '../document/workflow-document.ts';
import type { BoundMemoryDefinition } from '../runtime/action.ts';

/** A document's `kind: memory` defs with their definitions, by def name. */
export type MemoryDefsByName = ReadonlyMap<string, BoundMemoryDefinition>;

/**
 * The definitions the document's `kind: memory` defs name, once each. An id that is no UUID
 * (a hand-edited document) is left out: no definition has it, so its def fails to bind.
 */
export function memoryDefinitionIds(document: WorkflowDocument): string[] {
  return [...new Set(memoryDefs(document).map(([, def]) => def.settings.definition_id))].filter(isUuid);
}

/**
 * Binds the document's `kind: memory` defs to their definitions (read for
 * {@link memoryDefinitionIds}, by id), and checks every `bindings.memory` name (the workflow's
 * and each task's) names one of those defs. Saving a workflow checks the same, but a definition
 * can be deleted afterwards: the run then fails before its first step rather than run without
 * memory it was written for.
 * Throws BOT_ERR_WORKFLOW_MEMORY_DEFINITION_UNKNOWN or BOT_ERR_WORKFLOW_MEMORY_UNKNOWN.
 * @example const defs = bindMemoryDefs(document, (await store.load(target, { definitionIds, withDefinitions: true })).definitions)
 */
export function bindMemoryDefs(document: WorkflowDocument, definitions: ReadonlyMap<string, BoundMemoryDefinition>): MemoryDefsByName {
  const byName = new Map<string, BoundMemoryDefinition>();
  for (const [name, def] of memoryDefs(document)) {
    const definition = definitions.get(def.settings.definition_id);
    if (!definition) throw definitionUnknown(name, def.settings.definition_id);
    byName.set(name, definition);
  }
  assertBindingsKnown(document, byName);
  return byName;
}

function memoryDefs(document: WorkflowDocument): [string, MemoryDef][] {
  return Object.entries(document.defs).filter((entry): entry is [string, MemoryDef] => entry[1].kind === 'memory');
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
