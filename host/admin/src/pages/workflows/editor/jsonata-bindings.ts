import type { MemoryDefinition } from '../../../api/api-types.ts';
import { defNames } from './place-at.ts';
import { childAt, childValue, type OutlineNode } from './yaml-outline.ts';

/** A variable an expression may read, with what is under it. */
export interface Binding {
  name: string;
  info: string;
  children?: Binding[];
}

const leaf = (name: string, info: string): Binding => ({ name, info });

/**
 * What the runtime binds for an expression (host/workflows/expressions/expression-bindings.ts):
 * `$input`, `$context` (memory by slug: global definitions and the workflow's memory defs; the
 * subscriber and source in live runs), `$outputs` and each earlier task by name.
 */
export function expressionBindings(root: OutlineNode, definitions: readonly MemoryDefinition[], currentTask?: string): Binding[] {
  const tasks = defNames(root, 'task').filter((name) => name !== currentTask);
  const output = (name: string) => leaf(name, `The output of task ${name} (once it has run)`);
  return [
    {
      name: 'input',
      info: 'The inbound message',
      children: [leaf('text', 'The message text'), leaf('message_type', 'text, quickReply, attachment, location'), leaf('payload', 'The quick reply or button payload'), leaf('attachments', 'The files of an attachment message: kind, url (the host\'s link), platformId, name, mimeType'), leaf('location', 'The place of a location message: latitude, longitude, title, address')],
    },
    {
      name: 'context',
      info: 'The run: memory, and in live runs the subscriber and source',
      children: [
        { name: 'memory', info: 'Memory values by slug', children: memorySlugs(root, definitions) },
        { name: 'subscriber', info: 'Who wrote (live runs)', children: ['id', 'foreignId', 'firstName', 'lastName'].map((name) => leaf(name, `The subscriber's ${name}`)) },
        { name: 'source', info: 'Where the message came from (live runs)', children: ['id', 'name', 'channel'].map((name) => leaf(name, `The source's ${name}`)) },
      ],
    },
    { name: 'outputs', info: 'Outputs of the tasks already run, by task name', children: tasks.map(output) },
    ...tasks.filter((name) => /^[A-Za-z_]\w*$/.test(name)).map(output),
  ];
}

function memorySlugs(root: OutlineNode, definitions: readonly MemoryDefinition[]): Binding[] {
  const slugs = new Map<string, string>();
  for (const definition of definitions) if (definition.scope === 'global') slugs.set(definition.slug, `${definition.name} (global)`);
  for (const name of defNames(root, 'memory')) {
    const id = childValue(childAt(root, 'defs', name, 'settings'), 'definition_id');
    const definition = definitions.find((candidate) => candidate.id === id);
    slugs.set(definition?.slug ?? name, definition ? `${definition.name} (${definition.scope}), bound as ${name}` : `Bound by the def ${name}`);
  }
  return [...slugs].map(([slug, info]) => leaf(slug, info));
}

/** Functions of JSONata that workflows use most. */
export const JSONATA_FUNCTIONS = ['string', 'number', 'boolean', 'exists', 'count', 'merge', 'match', 'contains', 'substring', 'lowercase', 'uppercase', 'trim', 'join', 'split', 'replace', 'keys', 'lookup', 'now', 'sum', 'map', 'filter'];
