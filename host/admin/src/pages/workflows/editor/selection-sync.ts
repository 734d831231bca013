import { isolateHistory } from '@codemirror/commands';
import { Annotation, StateEffect, StateField, type Extension, type Range } from '@codemirror/state';
import { Decoration, EditorView, type DecorationSet } from '@codemirror/view';
import { minimalChange } from './minimal-change.ts';

/** A range of the document, as character offsets. */
export interface EditorRange {
  from: number;
  to: number;
}

/** Marks a transaction the flow caused, so that it is not reported back as the author's cursor. */
const fromFlow = Annotation.define<boolean>();
const markRevealed = StateEffect.define<EditorRange | null>();
const REVEALED_LINE = Decoration.line({ class: 'cm-flow-selected' });

/**
 * The lines of the step selected on the flow, shaded while the author has not moved the cursor
 * since: the selection alone is hard to see in an editor without focus.
 */
const revealedLines = StateField.define<DecorationSet>({
  create: () => Decoration.none,
  update(lines, transaction) {
    for (const effect of transaction.effects) if (effect.is(markRevealed)) return effect.value ? linesOf(transaction.state.doc, effect.value) : Decoration.none;
    if (transaction.selection && !transaction.annotation(fromFlow)) return Decoration.none;
    return lines.map(transaction.changes);
  },
  provide: (field) => EditorView.decorations.from(field),
});

function linesOf(doc: EditorView['state']['doc'], range: EditorRange): DecorationSet {
  const marks: Range<Decoration>[] = [];
  for (let line = doc.lineAt(range.from).number; line <= doc.lineAt(Math.min(range.to, doc.length)).number; line++) marks.push(REVEALED_LINE.range(doc.line(line).from));
  return Decoration.set(marks);
}

/**
 * The editor's half of the link between the text and the flow: tells `onCursor` where the
 * author's cursor is after each move they make (moves the flow makes are not echoed back).
 *
 * @example
 * EditorState.create({ doc, extensions: [editorExtensions(…), selectionSync((offset) => highlightStepAt(offset))] })
 */
export function selectionSync(onCursor: (offset: number) => void): Extension {
  return [
    revealedLines,
    EditorView.baseTheme({ '.cm-flow-selected': { backgroundColor: '#fdf3c4' } }),
    EditorView.updateListener.of((update) => {
      if (update.selectionSet && !update.transactions.some((transaction) => transaction.annotation(fromFlow))) onCursor(update.state.selection.main.head);
    }),
  ];
}

/** Selects `range` (a step's YAML, chosen on the flow), scrolls it into view and shades its lines. */
export function revealRange(view: EditorView, range: EditorRange): void {
  const to = Math.min(range.to, view.state.doc.length);
  view.dispatch({
    selection: { anchor: range.from, head: to },
    effects: [markRevealed.of({ from: range.from, to }), EditorView.scrollIntoView(range.from, { y: 'start', yMargin: 24 })],
    annotations: fromFlow.of(true),
  });
}

/**
 * Brings the editor to `text` made elsewhere (a canvas edit, a restored draft) as one
 * transaction replacing only what changed, an undo step of its own: Ctrl-Z in the editor undoes
 * a canvas edit like a typed one, and the cursor and folds elsewhere stay.
 */
export function applyExternalText(view: EditorView, text: string): void {
  const change = minimalChange(view.state.doc.toString(), text);
  if (!change) return;
  view.dispatch({ changes: change, annotations: [isolateHistory.of('full'), fromFlow.of(true)], userEvent: 'input.canvas' });
}
