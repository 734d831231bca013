/**
 * The known name a mistyped one most likely meant: the nearest by edit distance, when it is
 * near enough to be a typo (about one edit in three characters) rather than another name.
 *
 * @example
 * closestName('visitr', ['visitor', 'profile']); // 'visitor'
 * closestName('basket', ['visitor', 'profile']); // undefined
 */
export function closestName(typed: string, known: Iterable<string>): string | undefined {
  let best: { name: string; distance: number } | undefined;
  for (const name of known) {
    const distance = editDistance(typed.toLowerCase(), name.toLowerCase());
    if (distance <= Math.max(1, Math.floor(name.length / 3)) && (!best || distance < best.distance)) best = { name, distance };
  }
  return best?.name;
}

/** " (did you mean `x`?)" for a message, or nothing when no name is close. */
export function didYouMean(typed: string, known: Iterable<string>, write: (name: string) => string = (name) => name): string {
  const close = closestName(typed, known);
  return close === undefined ? '' : `; did you mean \`${write(close)}\`?`;
}

/** Edit distance counting an insertion, a deletion, a substitution or two letters swapped as one edit each. */
function editDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i += 1) {
    for (let j = 1; j <= b.length; j += 1) {
      const row = rows[i]!;
      row[j] = Math.min(rows[i - 1]![j]! + 1, row[j - 1]! + 1, rows[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) row[j] = Math.min(row[j]!, rows[i - 2]![j - 2]! + 1);
    }
  }
  return rows[a.length]![b.length]!;
}
