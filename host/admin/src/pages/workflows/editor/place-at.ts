import type { EditorState } from '@codemirror/state';
import { readOutline, type OutlineNode, type OutlinePlace } from './yaml-outline.ts';

/** The document's outline and where `pos` is in it. */
export function placeAt(state: EditorState, pos: number): { root: OutlineNode; place?: OutlinePlace; lineFrom: number } {
  const line = state.doc.lineAt(pos);
  const { root, place } = readOutline(state.doc.toJSON(), { line: line.number - 1, column: pos - line.from });
  return { root, place, lineFrom: line.from };
}

/** The names of the defs of this kind (`task`, `model`, `memory`). */
export function defNames(root: OutlineNode, kind: string): string[] {
  const defs = root.children.find((child) => child.key === 'defs');
  return (defs?.children ?? []).filter((def) => def.children.some((child) => child.key === 'kind' && child.value === kind)).map((def) => def.key);
}
