import type { Completion, CompletionContext, CompletionResult } from '@codemirror/autocomplete';
import { RESERVED_TOOL_NAME } from '../../../../../workflows/runtime/action-specs.ts';
import { defNames, placeAt } from './place-at.ts';
import { sequenceItemAt } from './sequence-item-at.ts';
import type { OutlineNode } from './yaml-outline.ts';

// What comes before a list item's text: a block item's dash, or a flow list's `[` or `,`.
const ITEM_START = /(?:^|\s)-\s+$|[[,]\s*$/;

/**
 * Completes the items of the lists that name defs of the document: `bindings: memory:` (the
 * workflow's and a task's) offers its `kind: memory` defs, an agent task's `inputs: tools:` the
 * other tasks (not itself, nor one named like the memory tool). Block (`- name`) and flow
 * (`[a, name]`) lists alike; a name already listed is not offered again.
 */
export function nameListCompletion(context: CompletionContext): CompletionResult | null {
  const word = context.matchBefore(/[\w.-]*/);
  if (!word) return null;
  const line = context.state.doc.lineAt(word.from);
  if (!ITEM_START.test(line.text.slice(0, word.from - line.from))) return null;
  const item = sequenceItemAt(context.state, word.from);
  if (!item) return null;
  const names = namesFor(placeAt(context.state, word.from).root, item.keys);
  if (!names) return null;
  const options = names.names.filter((name) => !item.listed.includes(name)).map((name): Completion => ({ label: name, type: 'variable', detail: names.detail }));
  return options.length === 0 ? null : { from: word.from, options, validFor: /^[\w.-]*$/ };
}

/** The def names a list at `keys` takes, if it is one of those lists. */
function namesFor(root: OutlineNode, keys: readonly string[]): { names: string[]; detail: string } | undefined {
  const path = keys.join('.');
  if (path === 'bindings.memory' || (keys.length === 4 && keys[0] === 'defs' && keys[2] === 'bindings' && keys[3] === 'memory')) {
    return { names: defNames(root, 'memory'), detail: 'memory def' };
  }
  if (keys.length === 4 && keys[0] === 'defs' && keys[2] === 'inputs' && keys[3] === 'tools') {
    return { names: defNames(root, 'task').filter((name) => name !== keys[1] && name !== RESERVED_TOOL_NAME), detail: 'task' };
  }
  return undefined;
}
