import { autocompletion, closeBrackets, completionKeymap } from '@codemirror/autocomplete';
import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { EditorState } from '@codemirror/state';
import { EditorView, keymap } from '@codemirror/view';
import { useEffect, useRef } from 'react';
import { acceptCompletionOnTab } from '../editor/completion-keys.ts';
import { fieldCompletion, type FieldPlace } from './field-completion.ts';

export interface JsonataFieldProps {
  /** The accessible name of the field. */
  label: string;
  /** The expression, without its leading `=`. */
  value: string;
  /** Called with the expression (without `=`) when the author leaves the field or presses Ctrl-Enter. */
  onCommit: (expression: string) => void;
  place: () => FieldPlace;
  readOnly?: boolean;
}

/**
 * A small CodeMirror editor for an input written as a JSONata expression, with the workflow
 * editor's completion for where the input sits (see field-completion.ts). Its text goes to the
 * YAML when the author leaves it (or presses Ctrl-Enter): one edit, one undo step.
 */
export function JsonataField({ label, value, onCommit, place, readOnly = false }: JsonataFieldProps) {
  const parent = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView>(null);
  const latest = useRef({ onCommit, place, value });
  useEffect(() => {
    latest.current = { onCommit, place, value };
  }, [onCommit, place, value]);

  useEffect(() => {
    const commit = (editor: EditorView) => {
      const text = editor.state.doc.toString();
      if (text !== latest.current.value) latest.current.onCommit(text);
      return true;
    };
    const created = new EditorView({
      parent: parent.current!,
      state: EditorState.create({
        doc: value,
        extensions: [
          history(),
          closeBrackets(),
          EditorView.lineWrapping,
          autocompletion({ override: [fieldCompletion(() => latest.current.place())], icons: false, selectOnOpen: false }),
          keymap.of([{ key: 'Mod-Enter', run: commit }, { key: 'Tab', run: acceptCompletionOnTab }, ...completionKeymap, ...historyKeymap, ...defaultKeymap]),
          EditorState.readOnly.of(readOnly),
          EditorView.contentAttributes.of({ 'aria-label': label, 'aria-multiline': 'true' }),
          EditorView.domEventHandlers({ blur: (_event, editor) => void commit(editor) }),
        ],
      }),
    });
    view.current = created;
    return () => created.destroy();
    // Built once per field; a new value from the YAML reaches it through the effect below.
  }, []);

  useEffect(() => {
    const current = view.current;
    if (current && !current.hasFocus && current.state.doc.toString() !== value) current.dispatch({ changes: { from: 0, to: current.state.doc.length, insert: value } });
  }, [value]);

  return (
    <div className="jsonata-field">
      <span className="jsonata-field-mark" aria-hidden="true">
        =
      </span>
      <div ref={parent} className="jsonata-field-editor" />
    </div>
  );
}
