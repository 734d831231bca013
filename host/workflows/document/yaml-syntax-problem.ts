import type { LineCounter, YAMLError } from 'yaml';
import type { WorkflowProblem } from './workflow-problem.ts';

interface Placed {
  line: number;
  column: number;
  message: string;
}

/**
 * One syntax problem for text that is not valid YAML, in plain words, at the line of the typo.
 * The parser often reports one typo several times as it recovers, and some errors where it
 * gave up rather than where the mistake is (an unclosed quote at the end of the text): only
 * the first is kept, and it is moved to the line that caused it.
 *
 * @example
 * yamlSyntaxProblem(document.errors, text, lineCounter);
 * // { path: '', line: 3, column: 5, code: 'BOT_ERR_WORKFLOW_YAML_SYNTAX', message: 'Line 3 has no ":" after its key …' }
 */
export function yamlSyntaxProblem(errors: readonly YAMLError[], text: string, lineCounter: LineCounter): WorkflowProblem | undefined {
  const first = errors.toSorted((a, b) => a.pos[0] - b.pos[0])[0];
  if (!first) return undefined;
  const { line, col } = lineCounter.linePos(first.pos[0]);
  const placed = explain(first, text.split('\n'), line, col);
  return { path: '', line: placed.line, column: placed.column, code: 'BOT_ERR_WORKFLOW_YAML_SYNTAX', message: placed.message };
}

function explain(error: YAMLError, lines: readonly string[], line: number, column: number): Placed {
  const text = lines[line - 1] ?? '';
  const key = /^\s*(?:-\s+)?([^:#\s][^:#]*?)\s*:/.exec(text)?.[1];
  switch (error.code) {
    case 'MULTILINE_IMPLICIT_KEY':
      return { line, column, message: `Line ${line} has no ":" after its key: write \`key: value\`, or indent it under the key above if it continues that value` };
    case 'BLOCK_AS_IMPLICIT_KEY':
      // A "- " item out of line with the items above it reads as a list used as a key.
      if (/block sequence/i.test(error.message)) return { line, column, message: badIndent(error, line) };
      return nestedKey(lines, line, column, key);
    case 'BAD_INDENT':
      return { line, column, message: badIndent(error, line) };
    case 'TAB_AS_INDENT':
      return { line, column, message: `Line ${line} is indented with a tab: YAML indents with spaces only` };
    case 'DUPLICATE_KEY':
      return { line, column, message: `${key ? `"${key}"` : 'This key'} is written twice in the same map (line ${line}): each key may appear once` };
    case 'MISSING_CHAR':
      return missingChar(error, lines, line, column);
    case 'BAD_SCALAR_START':
      return { line, column, message: `Line ${line}: a value cannot start with this character; put the value in quotes ('…')` };
    default:
      return { line, column, message: `Line ${line} is not valid YAML: ${error.message}` };
  }
}

/** `key: value: more` on one line, or a line indented under a key whose value is already written. */
function nestedKey(lines: readonly string[], line: number, column: number, key: string | undefined): Placed {
  const rest = (lines[line - 1] ?? '').slice(column - 1);
  if (/:(\s|$)/.test(rest)) {
    return { line, column, message: `Line ${line} has a second ": " after ${key ? `"${key}:"` : 'its key'}, which YAML reads as a nested key: put each key on its own line, or quote the value ('…')` };
  }
  const next = lines.findIndex((text, index) => index >= line && text.trim() !== '' && !text.trim().startsWith('#'));
  if (next < 0) return { line, column, message: `Line ${line}: a value cannot also hold nested keys` };
  const indent = /^\s*/.exec(lines[next]!)![0].length;
  return {
    line: next + 1,
    column: indent + 1,
    message: `Line ${next + 1} is indented deeper than ${key ? `"${key}"` : 'the key above'}, whose value is already written on line ${line}: keys of one map start in the same column`,
  };
}

function badIndent(error: YAMLError, line: number): string {
  if (/flow sequence/i.test(error.message)) return `Line ${line}: a list opened with "[" is not closed with "]"`;
  if (/flow map/i.test(error.message)) return `Line ${line}: a map opened with "{" is not closed with "}"`;
  return `Line ${line} is not aligned with the lines above it: the keys of one map (and the "- " items of one list) start in the same column`;
}

/** An unclosed quote is noticed where the text ends; the typo is where the quote opened. */
function missingChar(error: YAMLError, lines: readonly string[], line: number, column: number): Placed {
  const quote = /quote/i.test(error.message) ? (error.message.includes('"') ? '"' : "'") : undefined;
  if (!quote) return { line, column, message: `Line ${line}: ${error.message.replace(/^Implicit map keys need to be followed by map values$/, 'a key needs ":" and a value after it')}` };
  const opened = lines.findIndex((text) => unclosedQuote(text, quote));
  const at = opened < 0 ? { line, column } : { line: opened + 1, column: lines[opened]!.indexOf(quote) + 1 };
  return { ...at, message: `Line ${at.line}: the value opened with ${quote} is never closed: end it with ${quote} on the same line` };
}

/** Whether a line's value starts with `quote` and does not end with it. */
function unclosedQuote(text: string, quote: string): boolean {
  const value = /^\s*(?:-\s+)?(?:[^:#'"]+:\s+)?(.*)$/.exec(text)?.[1]?.trim() ?? '';
  if (!value.startsWith(quote)) return false;
  const body = value.slice(1);
  // In single quotes '' is an escaped quote; in double quotes \" is.
  const stripped = quote === "'" ? body.replaceAll("''", '') : body.replaceAll('\\"', '');
  return !stripped.includes(quote);
}
