/** A value being checked, with the way back to the root (built into a path only when needed). */
interface Visit {
  value: unknown;
  key: string;
  parent: Visit | undefined;
}

/**
 * Where `value` holds text PostgreSQL cannot store: a string (value or key) with a NUL character
 * or an unpaired surrogate, which text columns and jsonb refuse. Returns the dot-joined path of
 * the first one (`''` for `value` itself), or undefined when every string is storable. Walks
 * iteratively, so a deeply nested value cannot overflow the stack.
 * @example findUnstorableText({ name: 'a\u0000b' }) // 'name'
 */
export function findUnstorableText(value: unknown): string | undefined {
  const pending: Visit[] = [{ value, key: '', parent: undefined }];
  while (pending.length > 0) {
    const visit = pending.pop()!;
    if (typeof visit.value === 'string') {
      if (!isStorableText(visit.value)) return pathOf(visit);
    } else if (typeof visit.value === 'object' && visit.value !== null) {
      for (const [key, child] of Object.entries(visit.value)) {
        const next = { value: child, key, parent: visit };
        if (!isStorableText(key)) return pathOf(next);
        pending.push(next);
      }
    }
  }
  return undefined;
}

/** False for text with a NUL character or an unpaired surrogate. */
export function isStorableText(text: string): boolean {
  return text.isWellFormed() && !text.includes('\u0000');
}

function pathOf(visit: Visit): string {
  const keys: string[] = [];
  for (let at: Visit | undefined = visit; at?.parent; at = at.parent) keys.push(at.key);
  return keys.reverse().join('.');
}
