/** One replacement turning a text into another: `from`–`to` of the old text becomes `insert`. */
export interface TextChange {
  from: number;
  to: number;
  insert: string;
}

/**
 * The smallest single replacement from `before` to `after` (their common start and end kept),
 * or undefined when they are equal. An edit made outside the editor (the canvas) is applied as
 * this change: the cursor, folds and undo history of the rest of the text stay.
 *
 * @example
 * minimalChange('text: Hi\nflow: []', 'text: Hello\nflow: []') // { from: 7, to: 8, insert: 'ello' }
 */
export function minimalChange(before: string, after: string): TextChange | undefined {
  if (before === after) return undefined;
  let start = 0;
  const shorter = Math.min(before.length, after.length);
  while (start < shorter && before.charCodeAt(start) === after.charCodeAt(start)) start++;
  let end = 0;
  while (end < shorter - start && before.charCodeAt(before.length - 1 - end) === after.charCodeAt(after.length - 1 - end)) end++;
  return { from: start, to: before.length - end, insert: after.slice(start, after.length - end) };
}
