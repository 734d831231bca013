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
 * `update_memory` task's `memory` input writes (its outermost object's keys), and its memory bindings.
 *
 * @example
 * memoryTouched({ action: 'send_text_message', inputs: { text: '=$context.memory.profile.name' } })
 * // [{ name: 'profile', access: ['reads'] }]
 */
export function memoryTouched(task: TaskForMemory): MemoryTouch[] {
  const touches = new Map<string, Set<MemoryAccess>>();
  const add = (name: string, access: MemoryAccess) => touches.set(name, (touches.get(name) ?? new Set()).add(access));
  for (const text of stringsIn(task.inputs)) for (const match of text.matchAll(READ)) add(match[1] ?? '', 'reads');
  if (task.action === 'update_memory') for (const name of writtenSlugs(task.inputs?.memory)) add(name, 'writes');
  for (const name of task.boundMemory ?? []) add(name, 'bound');
  return [...touches].map(([name, access]) => ({ name, access: ACCESS_ORDER.filter((each) => access.has(each)) }));
}

/**
 * An `update_memory` input: an object keyed by slug, or an expression that builds one, whose
 * outermost object's keys are the slugs written (keys of objects nested in it are the values'
 * own properties: `{ "favourite_colour": { "colour": … } }` writes `favourite_colour` only).
 */
function writtenSlugs(memory: unknown): string[] {
  if (typeof memory === 'string') return outermostObjectKeys(memory);
  if (memory && typeof memory === 'object' && !Array.isArray(memory)) return Object.keys(memory);
  return [];
}

/** The string-literal keys of the objects at the outermost brace level of a JSONata expression. */
function outermostObjectKeys(expression: string): string[] {
  const keys: string[] = [];
  let braces = 0;
  let nested = 0; // brackets and parentheses inside an object: their contents are not its keys
  for (let index = 0; index < expression.length; index += 1) {
    const char = expression[index]!;
    if (char === '"' || char === "'") {
      let end = index + 1;
      while (end < expression.length && expression[end] !== char) end += expression[end] === '\\' ? 2 : 1;
      const literal = expression.slice(index + 1, end);
      index = end;
      let next = end + 1;
      while (next < expression.length && /\s/.test(expression[next]!)) next += 1;
      if (expression[next] === ':' && braces === 1 && nested === 0) keys.push(literal);
    } else if (char === '{') braces += 1;
    else if (char === '}') braces = Math.max(0, braces - 1);
    else if ((char === '[' || char === '(') && braces > 0) nested += 1;
    else if ((char === ']' || char === ')') && braces > 0) nested = Math.max(0, nested - 1);
  }
  return [...new Set(keys)];
}

function stringsIn(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (value && typeof value === 'object') return Object.values(value).flatMap(stringsIn);
  return [];
}
