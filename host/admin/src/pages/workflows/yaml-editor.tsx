import { lazy, Suspense } from 'react';
import type { CodeEditorProps } from './editor/code-editor.tsx';

// CodeMirror is loaded with the workflow pages only: Vite puts it in a chunk of its own.
const CodeEditor = lazy(() => import('./editor/code-editor.tsx').then((module) => ({ default: module.CodeEditor })));

/**
 * The workflow YAML editor (CodeMirror 6, see editor/): completion and hover from the workflow
 * schema, JSONata expressions marked, the server's problems in the lint gutter and listed below.
 */
export function YamlEditor(props: CodeEditorProps) {
  return (
    <Suspense fallback={<p className="code-editor-loading">Loading the editor…</p>}>
      <CodeEditor {...props} />
    </Suspense>
  );
}
