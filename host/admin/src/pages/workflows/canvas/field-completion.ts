import { CompletionContext, type CompletionResult, type CompletionSource } from '@codemirror/autocomplete';
import { yaml as yamlLanguage } from '@codemirror/lang-yaml';
import { EditorState } from '@codemirror/state';
import type { MemoryDefinition } from '../../../api/api-types.ts';
import { jsonataCompletion } from '../editor/jsonata-completion.ts';
import { memoryDefinitionsField, setMemoryDefinitions } from '../editor/memory-definitions.ts';
import { setTaskInput } from './yaml-edits.ts';

/** Where a form's expression field sits: the workflow around it, and what completion knows. */
export interface FieldPlace {
  yaml: string;
  task: string;
  input: string;
  definitions: readonly MemoryDefinition[];
}

// Stands for the field's text while the workflow is written with it, then is replaced by it.
const MARKER = '=__canvas_field__';

/**
 * The workflow editor's JSONata completion in a form's expression field (its text without the
 * leading `=`): the field's text is put in place of the input's value in the workflow, and the
 * editor's own completion asked there, so it offers what it would in the YAML (`$input`, the
 * outputs of the tasks before, `$context.memory.<slug>` and its fields, the functions).
 *
 * @example
 * autocompletion({ override: [fieldCompletion(() => ({ yaml, task: 'greet', input: 'text', definitions }))] })
 */
export function fieldCompletion(place: () => FieldPlace): CompletionSource {
  return (context) => {
    const host = hostState(place(), context.state.doc.toString());
    if (!host) return null;
    const result = jsonataCompletion(new CompletionContext(host.state, host.offset + context.pos, context.explicit));
    return result && shiftResult(result, -host.offset);
  };
}

/** The workflow with the field's text as the input's value (on one line), and where the text starts. */
function hostState(place: FieldPlace, text: string): { state: EditorState; offset: number } | undefined {
  let written: string;
  try {
    // Removed first, so the value is written anew on the key's line, not as a block scalar's line.
    written = setTaskInput(setTaskInput(place.yaml, place.task, place.input, undefined), place.task, place.input, MARKER);
  } catch {
    return undefined; // The YAML does not parse: nothing to complete from.
  }
  const at = written.indexOf(MARKER);
  if (at < 0) return undefined;
  // Same length, one line: the field's offsets map one to one.
  const doc = `${written.slice(0, at)}=${text.replace(/[\r\n]/g, ' ')}${written.slice(at + MARKER.length)}`;
  const state = EditorState.create({ doc, extensions: [yamlLanguage(), memoryDefinitionsField] }).update({ effects: setMemoryDefinitions.of(place.definitions) }).state;
  return { state, offset: at + 1 };
}

function shiftResult(result: CompletionResult, by: number): CompletionResult {
  return { ...result, from: result.from + by, ...(result.to === undefined ? {} : { to: result.to + by }) };
}
