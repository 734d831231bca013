/** How a step touches a memory: reads it in an expression, writes it, or is bound to it (an AI task). */
export type MemoryAccess = 'reads' | 'writes' | 'bound';

/** A memory a step touches, by the name the YAML uses for it (slug in expressions, def name in bindings). */
export interface MemoryTouch {
  name: string;
  access: MemoryAccess[];
}

/** What `memoryTouched` reads of a task and of the workflow around it. */
export interface TaskForMemory {
  action?: string;
  inputs?: Record<string, unknown>;
  boundMemory?: string[];
}

const READ = /\$context\.memory\.([A-Za-z_][A-Za-z0-9_]*)/g;
const ACCESS_ORDER: MemoryAccess[] = ['reads', 'writes', 'bound'];

/**
 * The memories a task touches: `$context.memory.<slug>` in its inputs (reads), the slugs an
 * `update_memory` task's `memory` input names among `known` (writes), and its memory bindings.
 *
 * @example
 * memoryTouched({ action: 'send_text_message', inputs: { text: '=$context.memory.profile.name' } }, ['profile'])
 * // [{ name: 'profile', access: ['reads'] }]
 */
export function memoryTouched(task: TaskForMemory, known: string[]): MemoryTouch[] {
  const touches = new Map<string, Set<MemoryAccess>>();
  const add = (name: string, access: MemoryAccess) => touches.set(name, (touches.get(name) ?? new Set()).add(access));
  for (const text of stringsIn(task.inputs)) for (const match of text.matchAll(READ)) add(match[1] ?? '', 'reads');
  if (task.action === 'update_memory') for (const name of writtenSlugs(task.inputs?.memory, known)) add(name, 'writes');
  for (const name of task.boundMemory ?? []) add(name, 'bound');
  return [...touches].map(([name, access]) => ({ name, access: ACCESS_ORDER.filter((each) => access.has(each)) }));
}

/** An `update_memory` input: an object keyed by slug, or an expression that builds one. */
function writtenSlugs(memory: unknown, known: string[]): string[] {
  if (typeof memory === 'string') return known.filter((name) => new RegExp(`["'\`]${name}["'\`]\\s*:`).test(memory));
  if (memory && typeof memory === 'object' && !Array.isArray(memory)) return Object.keys(memory);
  return [];
}

function stringsIn(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (value && typeof value === 'object') return Object.values(value).flatMap(stringsIn);
  return [];
}
