import type { BoundMemoryDefinition } from '../runtime/action.ts';

/**
 * The `# Working Memory` block of an AI task, what the model is told it knows: a `## <definition name>` section per
 * bound definition that has a value, in binding order, then `- <label>: <value>` per field in
 * the order of the stored schema's properties (label = the property's `title`, else its name). Strings are written as they are,
 * everything else as JSON; fields without a value are left out. A definition without a value
 * has no section at all (the `update_memory` tool still lists it), and when none has a value
 * the block is '' so the system text stays as written. Sections are separated by a blank line.
 * A string holding a line break is written as JSON too, so a value can never start a line of
 * its own (a heading or an instruction) in the prompt.
 * @example
 * renderWorkingMemory([{ name: 'Profile', slug: 'profile', schema }], { profile: { name: 'Ada' } })
 * // '# Working Memory\n\n## Profile\n- Name: Ada'
 */
export function renderWorkingMemory(definitions: readonly BoundMemoryDefinition[], memory: Record<string, unknown>): string {
  const sections = definitions.filter(({ slug }) => memory[slug] !== undefined).map((definition) => renderSection(definition, memory[definition.slug]));
  return sections.length === 0 ? '' : ['# Working Memory', ...sections].join('\n\n');
}

/**
 * The system instructions an AI action sends: its own text, a blank line, then the Working
 * Memory block; either alone when the other is empty.
 * @example withWorkingMemory('Be brief.', memory.workingMemoryBlock(task))
 */
export function withWorkingMemory(system: string | undefined, block: string): string {
  return [system ?? '', block].filter((part) => part.length > 0).join('\n\n');
}

function renderSection(definition: BoundMemoryDefinition, value: unknown): string {
  const lines = [`## ${definition.name}`];
  for (const [field, property] of Object.entries(propertiesOf(definition))) {
    const fieldValue = isRecord(value) ? value[field] : undefined;
    if (fieldValue !== undefined) lines.push(`- ${labelOf(field, property)}: ${renderValue(fieldValue)}`);
  }
  return lines.join('\n');
}

function propertiesOf(definition: BoundMemoryDefinition): Record<string, unknown> {
  const properties = definition.schema.properties;
  return isRecord(properties) ? properties : {};
}

function labelOf(field: string, property: unknown): string {
  const title = isRecord(property) ? property.title : undefined;
  return typeof title === 'string' && title.trim() !== '' ? title : field;
}

function renderValue(value: unknown): string {
  if (typeof value === 'string' && !/[\r\n]/.test(value)) return value;
  return JSON.stringify(value);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
