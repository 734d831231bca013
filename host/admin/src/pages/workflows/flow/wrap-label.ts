import { truncateLabel } from './truncate-label.ts';

// A line may end after one of these: a space, or a break in an expression's path or call.
const BREAK_AFTER = /[ .,(&]/;

/**
 * Text in at most `lines` lines of `max` characters each (SVG text does not wrap). A line ends
 * after its last space, `.`, `,`, `(` or `&` when that leaves it at least half full, else mid-word;
 * the last line is cut with an ellipsis. The lines joined are the text again (up to the cut).
 *
 * @example
 * wrapLabel('text: if $exists($context.memory.profile.name)', 34, 2)
 * // ['text: if $exists($context.memory.', 'profile.name)']
 */
export function wrapLabel(text: string, max: number, lines: number): string[] {
  const wrapped: string[] = [];
  let rest = text;
  while (wrapped.length < lines - 1 && rest.length > max) {
    const end = lineEnd(rest, max);
    wrapped.push(rest.slice(0, end));
    rest = rest.slice(end);
  }
  wrapped.push(truncateLabel(rest, max));
  return wrapped;
}

function lineEnd(text: string, max: number): number {
  for (let end = max; end > max / 2; end--) if (BREAK_AFTER.test(text.charAt(end - 1))) return end;
  return max;
}
