import type { Completion } from '@codemirror/autocomplete';
import type { MemoryDefinition } from '../../../api/api-types.ts';

/**
 * A memory definition by slug for `definition_id:`: writes its id, with the slug as a comment
 * so the YAML still says which definition it is.
 */
export function memoryDefinitionOptions(definitions: readonly MemoryDefinition[]): Completion[] {
  return definitions.map((definition) => ({
    label: definition.slug,
    type: 'constant',
    detail: `${definition.name} · ${definition.scope}`,
    info: `Writes the id ${definition.id}`,
    apply: `${definition.id} # ${definition.slug}`,
  }));
}

/** Under `defs:`, a whole `kind: memory` def binding a definition, named after its slug. */
export function memoryDefSnippets(definitions: readonly MemoryDefinition[], column: number): Completion[] {
  const pad = (depth: number) => ' '.repeat(column + depth * 2);
  return definitions.map((definition) => ({
    label: definition.slug,
    type: 'class',
    detail: 'memory def',
    info: `A kind: memory def binding "${definition.name}" (${definition.scope}); its values appear under $context.memory.${definition.slug}`,
    apply: `${definition.slug}:\n${pad(1)}kind: memory\n${pad(1)}settings:\n${pad(2)}definition_id: ${definition.id} # ${definition.slug}\n${pad(0)}`,
  }));
}
