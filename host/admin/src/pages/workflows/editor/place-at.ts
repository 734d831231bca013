import type { EditorState } from '@codemirror/state';
import { readOutline, type OutlineNode, type OutlinePlace } from './yaml-outline.ts';

// `kind` among the top-level entries of a def written as a flow mapping (`{ kind: task, … }`).
const FLOW_KIND = /^\{\s*(?:[^{}[\]]*,\s*)?kind\s*:\s*(['"]?)(\w+)\1\s*[,}]/;

/** The document's outline and where `pos` is in it. */
export function placeAt(state: EditorState, pos: number): { root: OutlineNode; place?: OutlinePlace; lineFrom: number } {
  const line = state.doc.lineAt(pos);
  const { root, place } = readOutline(state.doc.toJSON(), { line: line.number - 1, column: pos - line.from });
  return { root, place, lineFrom: line.from };
}

/** The names of the defs of this kind (`task`, `model`, `memory`), in block or flow style. */
export function defNames(root: OutlineNode, kind: string): string[] {
  const defs = root.children.find((child) => child.key === 'defs');
  return (defs?.children ?? []).filter((def) => kindOf(def) === kind).map((def) => def.key);
}

function kindOf(def: OutlineNode): string | undefined {
  return def.children.find((child) => child.key === 'kind')?.value ?? FLOW_KIND.exec(def.value)?.[2];
}
