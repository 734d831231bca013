import { ensureSyntaxTree, syntaxTree } from '@codemirror/language';
import type { EditorState } from '@codemirror/state';
import type { SyntaxNode } from '@lezer/common';

/** A list item being typed: the keys that lead to its list, and the list's other items. */
export interface SequenceItemPlace {
  /** Keys from the document's root to the list, e.g. `['defs', 'helper', 'inputs', 'tools']` (`-` for an item on the way). */
  keys: string[];
  /** The plain items already in the list, besides the one typed. */
  listed: string[];
}

const SEQUENCES = new Set(['BlockSequence', 'FlowSequence']);

/**
 * The list item at `pos` when it is one, in block style (`- name`) or flow style (`[a, name`),
 * read from the YAML syntax tree: the parser keeps the nesting of a half-typed flow list, which
 * the line outline (yaml-outline.ts) leaves as a plain value. `pos` is where the item's text starts.
 *
 * @example
 * // bindings:\n  memory: [profile, | → { keys: ['bindings', 'memory'], listed: ['profile'] }
 */
export function sequenceItemAt(state: EditorState, pos: number): SequenceItemPlace | undefined {
  const tree = ensureSyntaxTree(state, pos, 50) ?? syntaxTree(state);
  const sequence = enclosingSequence(tree.resolveInner(pos, -1), pos);
  if (!sequence) return undefined;
  const listed = sequence
    .getChildren('Item')
    .filter((item) => item.to < pos || item.from > pos)
    .map((item) => unquote(state.sliceDoc(item.from, item.to)));
  return { keys: keysAbove(state, sequence), listed };
}

/** The nearest list around `node`, unless `pos` is in a mapping value inside the item. */
function enclosingSequence(node: SyntaxNode, pos: number): SyntaxNode | undefined {
  for (let current: SyntaxNode | null = node; current; current = current.parent) {
    if (SEQUENCES.has(current.name)) return current;
    const colon = current.name === 'Pair' ? current.getChild(':') : null;
    if (colon && colon.from < pos) return undefined;
  }
  return undefined;
}

function keysAbove(state: EditorState, node: SyntaxNode): string[] {
  const keys: string[] = [];
  for (let current = node.parent; current; current = current.parent) {
    if (current.name === 'Item') keys.unshift('-');
    const key = current.name === 'Pair' ? current.getChild('Key') : null;
    if (key) keys.unshift(unquote(state.sliceDoc(key.from, key.to)));
  }
  return keys;
}

function unquote(text: string): string {
  const trimmed = text.trim();
  return /^(['"]).*\1$/.test(trimmed) ? trimmed.slice(1, -1) : trimmed;
}
