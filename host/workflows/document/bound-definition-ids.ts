import type { WorkflowDocument } from './workflow-document.ts';

/** The memory definition ids a document's `kind: memory` defs bind, each once. */
export function boundDefinitionIds(document: WorkflowDocument): string[] {
  const ids = Object.values(document.defs).flatMap((def) => (def.kind === 'memory' ? [def.settings.definition_id] : []));
  return [...new Set(ids)];
}
