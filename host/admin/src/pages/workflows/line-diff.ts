import { diffLines } from 'diff';

/** One line of a two-version diff, with its number in the old and/or new text. */
export interface DiffLine {
  kind: 'added' | 'removed' | 'same';
  text: string;
  oldNumber?: number;
  newNumber?: number;
}

/** A run of unchanged lines folded away, leaving this many on each side of a change. */
const CONTEXT_LINES = 3;

/** What the diff shows: lines, and folds standing for unchanged lines far from any change. */
export type DiffRow = DiffLine | { kind: 'fold'; count: number };

/**
 * The line diff of two texts (jsdiff's Myers diff), numbered, with unchanged stretches longer
 * than twice the context folded into one row.
 * @example lineDiff('a\nb\n', 'a\nc\n') // [same a, removed b, added c]
 */
export function lineDiff(before: string, after: string): DiffRow[] {
  const lines: DiffLine[] = [];
  let oldNumber = 1;
  let newNumber = 1;
  for (const change of diffLines(before, after)) {
    for (const text of splitLines(change.value)) {
      if (change.added) lines.push({ kind: 'added', text, newNumber: newNumber++ });
      else if (change.removed) lines.push({ kind: 'removed', text, oldNumber: oldNumber++ });
      else lines.push({ kind: 'same', text, oldNumber: oldNumber++, newNumber: newNumber++ });
    }
  }
  return foldUnchanged(lines);
}

function splitLines(value: string): string[] {
  const lines = value.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines;
}

function foldUnchanged(lines: DiffLine[]): DiffRow[] {
  const near = lines.map((_, index) => lines.slice(Math.max(0, index - CONTEXT_LINES), index + CONTEXT_LINES + 1).some((line) => line.kind !== 'same'));
  const rows: DiffRow[] = [];
  lines.forEach((line, index) => {
    if (near[index]) return void rows.push(line);
    const last = rows.at(-1);
    if (last?.kind === 'fold') last.count++;
    else rows.push({ kind: 'fold', count: 1 });
  });
  return rows;
}
