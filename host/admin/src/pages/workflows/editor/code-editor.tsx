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

export interface CodeEditorProps {
  value: string;
  onChange: (value: string) => void;
  problems: WorkflowProblem[];
  readOnly?: boolean;
}

/**
 * The workflow YAML in CodeMirror 6, controlled by `value`; the server's problems show in the
 * lint gutter at their line and column and in a list below whose entries move the cursor there.
 */
export function CodeEditor({ value, onChange, problems, readOnly = false }: CodeEditorProps) {
  const helpId = useId();
  const parent = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView>(null);
  const latestOnChange = useRef(onChange);
  useEffect(() => {
    latestOnChange.current = onChange;
  }, [onChange]);

  useEffect(() => {
    const extensions = editorExtensions({ label: 'Workflow YAML', describedBy: helpId, readOnly, onChange: (text) => latestOnChange.current(text) });
    const created = new EditorView({ parent: parent.current!, state: EditorState.create({ doc: value, extensions }) });
    view.current = created;
    return () => created.destroy();
    // Built once; value, problems and readOnly reach it through the effects below.
  }, []);

  useEffect(() => {
    const current = view.current;
    if (current && current.state.doc.toString() !== value) current.dispatch({ changes: { from: 0, to: current.state.doc.length, insert: value } });
  }, [value]);

  useEffect(() => {
    view.current?.dispatch({ effects: readOnlyCompartment.reconfigure(readOnlyExtension(readOnly)) });
  }, [readOnly]);

  const problemsKey = JSON.stringify(problems);
  useEffect(() => {
    const current = view.current;
    if (current) current.dispatch(setDiagnostics(current.state, problemDiagnostics(current.state.doc, problems)));
    // problemsKey stands for problems: a new array with the same problems changes nothing.
  }, [problemsKey, value]);

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
