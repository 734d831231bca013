import { syntaxTree } from '@codemirror/language';
import type { EditorState, Range } from '@codemirror/state';
import { Decoration, ViewPlugin, type DecorationSet, type EditorView, type ViewUpdate } from '@codemirror/view';
import type { SyntaxNode } from '@lezer/common';

const SCALARS = new Set(['Literal', 'QuotedLiteral', 'BlockLiteralContent']);
const MARK = Decoration.mark({ class: 'cm-jsonata', attributes: { title: 'JSONata expression' } });

/** The scalar value around `node` that is a JSONata expression (its text starts with `=`), if any. */
export function expressionNode(state: EditorState, node: SyntaxNode | null): SyntaxNode | undefined {
  for (let current = node; current; current = current.parent) {
    if (!SCALARS.has(current.name)) continue;
    if (current.parent?.name === 'Key') return undefined;
    return isExpression(state.doc.sliceString(current.from, Math.min(current.to, current.from + 200)), current.name) ? current : undefined;
  }
  return undefined;
}

function isExpression(text: string, name: string): boolean {
  if (name === 'QuotedLiteral') return text[1] === '=';
  return text.trimStart().startsWith('=');
}

function marks(view: EditorView): DecorationSet {
  const ranges: Range<Decoration>[] = [];
  for (const { from, to } of view.visibleRanges) {
    syntaxTree(view.state).iterate({
      from,
      to,
      enter: (node) => {
        if (!SCALARS.has(node.name)) return;
        if (expressionNode(view.state, node.node) && node.to > node.from) ranges.push(MARK.range(node.from, node.to));
        return false;
      },
    });
  }
  return Decoration.set(ranges, true);
}

/** Marks every JSONata expression (a value starting with `=`) with the `cm-jsonata` class. */
export const jsonataMarks = ViewPlugin.fromClass(
  class {
    decorations: DecorationSet;
    constructor(view: EditorView) {
      this.decorations = marks(view);
    }
    update(update: ViewUpdate) {
      if (update.docChanged || update.viewportChanged || syntaxTree(update.startState) !== syntaxTree(update.state)) this.decorations = marks(update.view);
    }
  },
  { decorations: (plugin) => plugin.decorations },
);
