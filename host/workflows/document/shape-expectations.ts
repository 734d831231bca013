import { ACTION_NAMES } from '../runtime/action-specs.ts';
import type { YamlPath } from './workflow-problem.ts';

/** What a workflow holds at a path, in the words an author reads, keyed by the path's pattern. */
const EXPECTED: [pattern: readonly string[], expected: string][] = [
  [[], 'a map with `defs:` and `flow:`'],
  [['flow'], 'a list of steps like `- do: <task>`'],
  [['flow', '#'], 'a step like `do: <task>`'],
  [['flow', '#', 'do'], 'the name of a `kind: task` def'],
  [['defs'], 'a map of named defs, each like `greet:` with its `kind:` below it'],
  [['defs', '*'], 'a def: a map with `kind: memory`, `kind: model` or `kind: task`'],
  [['defs', '*', 'action'], `the name of an action (${ACTION_NAMES.join(', ')})`],
  [['defs', '*', 'inputs'], 'a map of input names to values, like `text: Hello`'],
  [['defs', '*', 'settings'], 'a map of settings (`definition_id:` for memory, `provider:` and `model_id:` for a model)'],
  [['defs', '*', 'settings', 'definition_id'], 'the id of a memory definition'],
  [['defs', '*', 'bindings'], 'a map with `model:` and/or `memory:`'],
  [['defs', '*', 'bindings', 'model'], 'the name of a `kind: model` def'],
  [['defs', '*', 'bindings', 'memory'], 'a list of `kind: memory` def names, like `[profile]`'],
  [['bindings'], 'a map with `model:` and/or `memory:`'],
  [['bindings', 'model'], 'the name of a `kind: model` def'],
  [['bindings', 'memory'], 'a list of `kind: memory` def names, like `[profile]`'],
];

/** zod's expected types in plain words, for paths the table above does not name. */
const TYPE_WORDS: Record<string, string> = {
  object: 'a map (`key: value` lines)',
  record: 'a map (`key: value` lines)',
  array: 'a list (`- item` lines)',
  string: 'text',
  number: 'a number',
  boolean: 'true or false',
};

/**
 * What belongs at `path`, in plain words: from the table of the workflow's keys, else from
 * the type zod expected.
 *
 * @example
 * expectedAt(['flow']); // 'a list of steps like `- do: <task>`'
 */
export function expectedAt(path: YamlPath, zodExpected?: string): string | undefined {
  const known = EXPECTED.find(([pattern]) => pattern.length === path.length && pattern.every((segment, index) => matches(segment, path[index]!)));
  return known?.[1] ?? (zodExpected === undefined ? undefined : TYPE_WORDS[zodExpected] ?? zodExpected);
}

function matches(segment: string, part: string | number): boolean {
  if (segment === '#') return typeof part === 'number';
  return segment === '*' ? typeof part === 'string' : segment === part;
}

/** How the author names the place: `flow`, step 2 of `flow`, `text` in defs.greet.inputs. */
export function placeName(path: YamlPath): string {
  const last = path.at(-1);
  if (last === undefined) return 'The workflow';
  if (typeof last === 'number') return `Step ${last + 1} of \`${String(path.at(-2))}\``;
  return path.length > 1 ? `\`${last}\` (in ${path.slice(0, -1).join('.')})` : `\`${last}\``;
}

/** A value as the author wrote it, in words: "a list", "a map", "the text "hi"". */
export function describeValue(value: unknown): string {
  if (value === null || value === undefined) return 'empty';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a map';
  if (typeof value === 'string') return `the text "${value.length > 40 ? `${value.slice(0, 40)}…` : value}"`;
  return `${typeof value === 'number' ? 'the number' : ''} ${String(value)}`.trim();
}
