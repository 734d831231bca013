import { setDiagnostics } from '@codemirror/lint';
import { EditorState } from '@codemirror/state';
import { EditorView } from '@codemirror/view';
import { useEffect, useId, useRef } from 'react';
import { api } from '../../../api/api-client.ts';
import type { MemoryDefinition, Page, WorkflowProblem } from '../../../api/api-types.ts';
import './code-editor.css';
import { editorExtensions, readOnlyCompartment, readOnlyExtension } from './editor-extensions.ts';
import { setMemoryDefinitions } from './memory-definitions.ts';
import { problemDiagnostics, problemRange } from './problem-diagnostics.ts';
import { ProblemList } from './problem-list.tsx';
import { applyExternalText, revealRange, selectionSync, type EditorRange } from './selection-sync.ts';

export interface CodeEditorProps {
  value: string;
  onChange: (value: string) => void;
  problems: WorkflowProblem[];
  readOnly?: boolean;
  /** Told where the author's cursor is after each move they make (the flow highlights its step). */
  onCursor?: (offset: number) => void;
  /** A range to select and scroll to (a step clicked on the flow); each new object selects again. */
  reveal?: EditorRange;
}

/**
 * The workflow YAML in CodeMirror 6, controlled by `value`; the server's problems show in the
 * lint gutter at their line and column and in a list below whose entries move the cursor there.
 */
export function CodeEditor({ value, onChange, problems, readOnly = false, onCursor, reveal }: CodeEditorProps) {
  const helpId = useId();
  const parent = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView>(null);
  const latestOnChange = useRef(onChange);
  const latestOnCursor = useRef(onCursor);
  useEffect(() => {
    latestOnChange.current = onChange;
    latestOnCursor.current = onCursor;
  }, [onChange, onCursor]);

  useEffect(() => {
    const extensions = editorExtensions({ label: 'Workflow YAML', describedBy: helpId, readOnly, onChange: (text) => latestOnChange.current(text) });
    const linked = [extensions, selectionSync((offset) => latestOnCursor.current?.(offset))];
    const created = new EditorView({ parent: parent.current!, state: EditorState.create({ doc: value, extensions: linked }) });
    view.current = created;
    return () => created.destroy();
    // Built once; value, problems and readOnly reach it through the effects below.
  }, []);

  useEffect(() => {
    // A change made elsewhere (the canvas, a restored draft): only what changed, undoable.
    if (view.current) applyExternalText(view.current, value);
  }, [value]);

  useEffect(() => {
    if (view.current && reveal) revealRange(view.current, reveal);
  }, [reveal]);

  useEffect(() => {
    view.current?.dispatch({ effects: readOnlyCompartment.reconfigure(readOnlyExtension(readOnly)) });
  }, [readOnly]);

  const problemsKey = JSON.stringify(problems);
  useEffect(() => {
    const current = view.current;
    if (current) current.dispatch(setDiagnostics(current.state, problemDiagnostics(current.state.doc, problems)));
    // problemsKey stands for problems: a new array with the same problems changes nothing. Not
    // redone per keystroke: the problems given belong to the current text (an edit empties them
    // until it is checked), and CodeMirror maps the marks shown through each edit.
  }, [problemsKey]);

  useEffect(() => {
    let live = true;
    api.get<Page<MemoryDefinition>>('/api/memory-definitions?limit=200').then(
      (page) => live && view.current?.dispatch({ effects: setMemoryDefinitions.of(page.items) }),
      () => {},
    );
    return () => {
      live = false;
    };
  }, []);

  const goTo = (problem: WorkflowProblem) => {
    const current = view.current;
    if (!current) return;
    const { from } = problemRange(current.state.doc, problem);
    current.dispatch({ selection: { anchor: from }, scrollIntoView: true });
    current.focus();
  };

  return (
    <div className="code-editor">
      <p id={helpId} className="code-editor-help">
        Ctrl-Space completes: the arrow keys then Enter, or Tab, take an item. Tab indents; to leave the editor press Escape, then Tab. Ctrl-F searches, F8 goes to the next problem, Ctrl-S saves.
      </p>
      <div ref={parent} className="code-editor-view" />
      <ProblemList problems={problems} onSelect={goTo} />
    </div>
  );
}
