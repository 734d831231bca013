import type { MemoryDefinition } from '../../../api/api-types.ts';
import type { Binding } from './binding.ts';
import type { JsonSchema } from './json-schema.ts';
import { memoryFieldBindings } from './memory-field-bindings.ts';
import { defNames } from './place-at.ts';
import { childAt, childValue, type OutlineNode } from './yaml-outline.ts';

const leaf = (name: string, info: string): Binding => ({ name, info });

/**
 * What the runtime binds for an expression (host/workflows/expressions/expression-bindings.ts):
 * `$input`, `$context` (memory by slug: global definitions and the workflow's memory defs; the
 * subscriber and source in live runs), `$outputs` and each task that ran before by name.
 */
export function expressionBindings(root: OutlineNode, definitions: readonly MemoryDefinition[], currentTask?: string): Binding[] {
  const tasks = tasksRunBefore(root, defNames(root, 'task'), currentTask);
  const output = (name: string) => leaf(name, `The output of task ${name} (once it has run)`);
  return [
    {
      name: 'input',
      info: 'The inbound message',
      children: [leaf('text', 'The message text'), leaf('message_type', 'text, quickReply, attachment, location'), leaf('payload', 'The quick reply or button payload'), leaf('attachments', 'The files of an attachment message: kind, url (the host\'s link), platformId, name, mimeType'), leaf('location', 'The place of a location message: latitude, longitude, title, address'), leaf('event_id', "The channel's id of the event"), leaf('channel', 'The channel it came through'), leaf('sender_id', "The sender's id on the channel"), leaf('occurred_at', 'When it was sent (ISO 8601)')],
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

/**
 * The tasks whose outputs exist when `current` runs, as validation judges it: the flow's steps
 * before its last one; every step for a task outside the flow (an agent's tool runs inside a step).
 */
function tasksRunBefore(root: OutlineNode, tasks: readonly string[], current: string | undefined): string[] {
  const steps = (childAt(root, 'flow')?.children ?? []).map((item) => childValue(item, 'do') || (/\bdo\s*:\s*([\w-]+)/.exec(item.value)?.[1] ?? ''));
  const last = current === undefined ? -1 : steps.lastIndexOf(current);
  const ran = new Set(last < 0 ? steps : steps.slice(0, last));
  return tasks.filter((name) => ran.has(name));
}

function memorySlugs(root: OutlineNode, definitions: readonly MemoryDefinition[]): Binding[] {
  const slugs = new Map<string, Binding>();
  for (const definition of definitions) if (definition.scope === 'global') slugs.set(definition.slug, slugBinding(definition, `${definition.name} (global)`));
  for (const name of defNames(root, 'memory')) {
    const id = childValue(childAt(root, 'defs', name, 'settings'), 'definition_id');
    const definition = definitions.find((candidate) => candidate.id === id);
    const slug = definition?.slug ?? name;
    slugs.set(slug, definition ? slugBinding(definition, `${definition.name} (${definition.scope}), bound as ${name}`) : leaf(slug, `Bound by the def ${name}`));
  }
  return [...slugs.values()];
}

/** A slug with the fields of its definition's schema under it. */
function slugBinding(definition: MemoryDefinition, info: string): Binding {
  const children = memoryFieldBindings(definition.schema as JsonSchema);
  return { name: definition.slug, info, detail: definition.scope, ...(children && { children }) };
}
