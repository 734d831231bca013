import { insertNewlineAndIndent } from '@codemirror/commands';
import { indentUnit } from '@codemirror/language';
import type { StateCommand } from '@codemirror/state';

/** A line that opens a block: a key with no value yet, a `|`/`>` scalar header, or a lone dash. */
const OPENS_BLOCK = /^( *)(?:- +)?(?:[\w$.-]+ *: *(?:[|>][-+0-9]*)?|-) *(?:#.*)?$/;

/**
 * Enter in YAML: after `key:` (or `key: |`) the new line is indented one level deeper, where
 * the key's value goes; elsewhere the usual newline keeping the indentation.
 */
export const insertYamlNewline: StateCommand = ({ state, dispatch }) => {
  const range = state.selection.main;
  const line = state.doc.lineAt(range.head);
  const before = line.text.slice(0, range.head - line.from);
  const match = range.empty && range.head === line.to ? OPENS_BLOCK.exec(before) : null;
  if (!match) return insertNewlineAndIndent({ state, dispatch });
  const dash = /^ *- +/.exec(before);
  const indent = (dash && /:/.test(before) ? dash[0].length : match[1]!.length) + state.facet(indentUnit).length;
  const insert = `\n${' '.repeat(indent)}`;
  dispatch(state.update({ changes: { from: range.head, insert }, selection: { anchor: range.head + insert.length }, scrollIntoView: true, userEvent: 'input' }));
  return true;
};
