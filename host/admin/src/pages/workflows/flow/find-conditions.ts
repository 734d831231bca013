/** A `test ? then : else` inside a JSONata expression: an input whose value depends on a condition. */
export interface ExpressionCondition {
  test: string;
  then: string;
  else: string;
}

const OPENERS = '([{';
const CLOSERS = ')]}';
// After one of these (or at the start) a `/` opens a regular expression, not a division.
const BEFORE_REGEX = '([{,;:=?!&|+-*%<>';

/**
 * The conditionals (`a ? b : c`) of a JSONata expression (without its leading `=`), in order, read with a small
 * scanner that skips strings, regular expressions and comments. Never throws: text that is not
 * a valid expression (typing in progress) gives what could be read.
 *
 * @example
 * findConditions('$exists($x) ? "yes" : "no"') // [{ test: '$exists($x)', then: '"yes"', else: '"no"' }]
 */
export function findConditions(expression: string): ExpressionCondition[] {
  const code = maskLiterals(expression);
  const found: ExpressionCondition[] = [];
  for (let index = 0; index < code.length; index++) {
    if (!isTernaryMark(code, index)) continue;
    const start = boundaryBefore(code, index);
    const colon = matchingColon(code, index);
    if (colon === undefined) continue;
    const end = boundaryAfter(code, colon);
    found.push({ test: tidy(expression.slice(start, index)), then: tidy(expression.slice(index + 1, colon)), else: tidy(expression.slice(colon + 1, end)) });
  }
  return found.filter((condition) => condition.test !== '');
}

/** The same text with string, regex and comment contents replaced by spaces (same offsets). */
function maskLiterals(text: string): string {
  let masked = '';
  let index = 0;
  while (index < text.length) {
    const end = literalEnd(text, index);
    if (end === undefined) {
      masked += text.charAt(index);
      index++;
    } else {
      masked += ' '.repeat(end - index);
      index = end;
    }
  }
  return masked;
}

function literalEnd(text: string, index: number): number | undefined {
  const char = text.charAt(index);
  if (char === '"' || char === "'" || char === '`') return closing(text, index + 1, char);
  if (text.startsWith('/*', index)) return endOrLength(text.indexOf('*/', index + 2), text, 2);
  if (char === '/' && BEFORE_REGEX.includes(previousCode(text, index))) return closing(text, index + 1, '/');
  return undefined;
}

function closing(text: string, from: number, quote: string): number {
  for (let index = from; index < text.length; index++) {
    if (text.charAt(index) === '\\') index++;
    else if (text.charAt(index) === quote) return index + 1;
  }
  return text.length;
}

function endOrLength(found: number, text: string, width: number): number {
  return found < 0 ? text.length : found + width;
}

function previousCode(text: string, index: number): string {
  const before = text.slice(0, index).trimEnd();
  return before === '' ? '(' : before.charAt(before.length - 1);
}

/** A lone `?`: not `??` (coalescing) nor `?:` (default). */
function isTernaryMark(code: string, index: number): boolean {
  return code.charAt(index) === '?' && code.charAt(index + 1) !== '?' && code.charAt(index + 1) !== ':' && code.charAt(index - 1) !== '?';
}

/** Where the condition's test starts: after the nearest unclosed opener, `;` or `,` before it. */
function boundaryBefore(code: string, index: number): number {
  let depth = 0;
  for (let at = index - 1; at >= 0; at--) {
    const char = code.charAt(at);
    if (CLOSERS.includes(char)) depth++;
    else if (OPENERS.includes(char)) {
      if (depth === 0) return at + 1;
      depth--;
    } else if (depth === 0 && isTestStart(code, at)) return at + 1;
  }
  return 0;
}

/** A `;`, `,`, `:=`, or the `?`/`:` of an enclosing conditional: what a test starts after. */
function isTestStart(code: string, at: number): boolean {
  const char = code.charAt(at);
  return char === ';' || char === ',' || char === '?' || char === ':' || (char === '=' && code.charAt(at - 1) === ':');
}

/** The `:` that closes the `?` at `index`, skipping nested conditionals, `:=` and object keys. */
function matchingColon(code: string, index: number): number | undefined {
  let depth = 0;
  let pending = 0;
  for (let at = index + 1; at < code.length; at++) {
    const char = code.charAt(at);
    if (OPENERS.includes(char)) depth++;
    else if (CLOSERS.includes(char) || (depth === 0 && (char === ';' || char === ','))) {
      if (depth === 0) return undefined;
      depth--;
    } else if (depth === 0 && isTernaryMark(code, at)) pending++;
    else if (depth === 0 && char === ':' && code.charAt(at + 1) !== '=' && code.charAt(at - 1) !== '?') {
      if (pending === 0) return at;
      pending--;
    }
  }
  return undefined;
}

/** Where the else branch ends: the first unmatched closer, `;` or `,` after it. */
function boundaryAfter(code: string, colon: number): number {
  let depth = 0;
  for (let at = colon + 1; at < code.length; at++) {
    const char = code.charAt(at);
    if (OPENERS.includes(char)) depth++;
    else if (CLOSERS.includes(char)) {
      if (depth === 0) return at;
      depth--;
    } else if (depth === 0 && (char === ';' || char === ',')) return at;
  }
  return code.length;
}

function tidy(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
