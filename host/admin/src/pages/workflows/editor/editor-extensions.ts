import { autocompletion, completionKeymap } from '@codemirror/autocomplete';
import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { yaml } from '@codemirror/lang-yaml';
import { bracketMatching, defaultHighlightStyle, foldGutter, foldKeymap, indentOnInput, indentUnit, syntaxHighlighting } from '@codemirror/language';
import { lintGutter, lintKeymap } from '@codemirror/lint';
import { highlightSelectionMatches, searchKeymap } from '@codemirror/search';
import { Compartment, EditorState, type Extension } from '@codemirror/state';
import { drawSelection, EditorView, highlightActiveLine, highlightActiveLineGutter, highlightSpecialChars, keymap, lineNumbers } from '@codemirror/view';
import { jsonataCompletion } from './jsonata-completion.ts';
import { jsonataMarks } from './jsonata-marks.ts';
import { memoryDefinitionsField } from './memory-definitions.ts';
import { nameListCompletion } from './name-list-completion.ts';
import { schemaCompletion } from './schema-completion.ts';
import { schemaHover } from './schema-hover.ts';
import { acceptCompletionOnTab } from './completion-keys.ts';
import { insertYamlNewline } from './yaml-enter.ts';

/** Switches the editor between editable and read-only without rebuilding it. */
export const readOnlyCompartment = new Compartment();

/** Whether the document can be changed: a viewer's editor still selects, searches and copies. */
export function readOnlyExtension(readOnly: boolean): Extension {
  return [EditorState.readOnly.of(readOnly)];
}

/**
 * The workflow editor: YAML with highlighting, two-space indentation (Tab indents; Escape then
 * Tab leaves the editor), folding, search, history, the lint gutter for the server's problems,
 * schema-driven completion and hover, def names in the lists that name defs, and JSONata
 * expressions marked and completed. The completion list opens with nothing selected: Enter
 * always starts a new line unless the author picked an item with the arrow keys (or clicks one);
 * Tab takes the picked item, or the first.
 */
export function editorExtensions(options: { label: string; describedBy: string; readOnly: boolean; onChange: (text: string) => void }): Extension {
  return [
    lineNumbers(),
    highlightActiveLineGutter(),
    foldGutter(),
    lintGutter(),
    highlightSpecialChars(),
    history(),
    drawSelection(),
    indentOnInput(),
    bracketMatching(),
    highlightActiveLine(),
    highlightSelectionMatches(),
    syntaxHighlighting(defaultHighlightStyle, { fallback: true }),
    EditorState.tabSize.of(2),
    indentUnit.of('  '),
    EditorView.lineWrapping,
    yaml(),
    memoryDefinitionsField,
    autocompletion({ override: [schemaCompletion, nameListCompletion, jsonataCompletion], icons: false, selectOnOpen: false }),
    schemaHover,
    jsonataMarks,
    keymap.of([...completionKeymap, { key: 'Tab', run: acceptCompletionOnTab }, { key: 'Enter', run: insertYamlNewline }, ...searchKeymap, ...historyKeymap, ...foldKeymap, ...lintKeymap, ...defaultKeymap, indentWithTab]),
    readOnlyCompartment.of(readOnlyExtension(options.readOnly)),
    EditorView.contentAttributes.of({ 'aria-label': options.label, 'aria-describedby': options.describedBy }),
    EditorView.updateListener.of((update) => {
      if (update.docChanged) options.onChange(update.state.doc.toString());
    }),
  ];
}
