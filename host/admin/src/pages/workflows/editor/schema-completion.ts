import { startCompletion, type Completion, type CompletionContext, type CompletionResult } from '@codemirror/autocomplete';
import type { EditorView } from '@codemirror/view';
import type { JsonSchema } from './json-schema.ts';
import { memoryDefinitionsField } from './memory-definitions.ts';
import { memoryDefinitionOptions, memoryDefSnippets } from './memory-completion.ts';
import { defNames, placeAt } from './place-at.ts';
import { propertySchema, schemaAt } from './schema-at.ts';
import type { OutlineNode, OutlinePlace } from './yaml-outline.ts';

/**
 * Completes keys and values from the workflow schema at the cursor: the properties the mapping
 * may still take, then the values its key allows (kinds, actions, providers, task and model
 * names, memory definitions by slug).
 */
export function schemaCompletion(context: CompletionContext): CompletionResult | null {
  const { root, place, lineFrom } = placeAt(context.state, context.pos);
  if (!place || !/^[\w.-]*$/.test(place.prefix)) return null;
  if (!context.explicit && place.prefix === '' && !place.valueOf) return null;
  const from = lineFrom + place.prefixColumn;
  const options = place.valueOf ? valueOptions(context, root, place, place.valueOf) : keyOptions(context, place);
  return options.length === 0 ? null : { from, options, validFor: /^[\w.-]*$/ };
}

function keyOptions(context: CompletionContext, place: OutlinePlace): Completion[] {
  const container = place.ancestors.at(-1)!;
  const schema = schemaAt(place.ancestors);
  const taken = new Set(container.children.map((child) => child.key));
  const options = Object.entries(schema?.properties ?? {})
    .filter(([name]) => !taken.has(name))
    .map(([name, property]): Completion => keyOption(name, property, place.prefixColumn, schema?.required?.includes(name) ?? false));
  const isDefs = place.ancestors.length === 2 && container.key === 'defs';
  if (isDefs) options.push(...memoryDefSnippets(context.state.field(memoryDefinitionsField), place.prefixColumn));
  return options;
}

function keyOption(name: string, property: JsonSchema, column: number, required: boolean): Completion {
  const inner = ' '.repeat(column + 2);
  const text = isType(property, 'object') ? `${name}:\n${inner}` : isType(property, 'array') ? `${name}:\n${inner}- ` : `${name}: `;
  return {
    label: name,
    type: 'property',
    detail: required ? 'required' : typeName(property),
    info: property.description,
    boost: required ? 1 : 0,
    apply: (view: EditorView, _completion: Completion, from: number, to: number) => {
      view.dispatch({ changes: { from, to, insert: text }, selection: { anchor: from + text.length }, userEvent: 'input.complete' });
      if (text.endsWith(': ')) startCompletion(view);
    },
  };
}

function valueOptions(context: CompletionContext, root: OutlineNode, place: OutlinePlace, key: string): Completion[] {
  const container = place.ancestors.at(-1)!;
  if (key === 'definition_id') return memoryDefinitionOptions(context.state.field(memoryDefinitionsField));
  if (key === 'do') return defNames(root, 'task').map((name) => ({ label: name, type: 'variable', detail: 'task' }));
  if (key === 'model' && container.key === 'bindings') return defNames(root, 'model').map((name) => ({ label: name, type: 'variable', detail: 'model' }));
  const containerSchema = schemaAt(place.ancestors);
  const property = containerSchema && propertySchema(containerSchema, container, key);
  if (!property) return [];
  if (property.enum) return property.enum.map((value, index) => ({ label: String(value), type: 'enum', info: property.enumDescriptions?.[index] }));
  if (property.const !== undefined) return [{ label: String(property.const), type: 'enum', info: property.description }];
  if (isType(property, 'boolean')) return ['true', 'false'].map((label) => ({ label, type: 'keyword' }));
  return [];
}

function isType(schema: JsonSchema, type: string): boolean {
  return schema.type === type || (Array.isArray(schema.type) && schema.type.includes(type)) || (type === 'object' && !schema.type && !!schema.properties);
}

function typeName(schema: JsonSchema): string {
  return Array.isArray(schema.type) ? schema.type.join(' | ') : (schema.type ?? '');
}
