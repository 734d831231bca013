/**
 * A forgiving reading of a YAML document's block structure (keys, sequence items, indentation),
 * enough to know where the cursor is while the author is half-way through a line that a YAML
 * parser would refuse. Flow collections and multi-line scalars are kept as plain values.
 */

/** A key or a sequence item (`key` is `-`) with what follows it on its line and the nodes under it. */
export interface OutlineNode {
  key: string;
  /** Column of the key, or of the dash for an item; -1 for the root. */
  indent: number;
  /** 0-based line number; -1 for the root. */
  line: number;
  /** The value on the key's line, without quotes or a trailing comment. */
  value: string;
  children: OutlineNode[];
}

/** Where the cursor is: the node it types in, and the key whose value it types (if any). */
export interface OutlinePlace {
  /** From the root to the mapping (or item) the cursor's key belongs to. */
  ancestors: OutlineNode[];
  /** The key before `:` when the cursor is in a value. */
  valueOf?: string;
  /** What is typed so far of the key or value. */
  prefix: string;
  /** Column where the typed key or value starts. */
  prefixColumn: number;
}

const LINE = /^( *)(- +)?(?:([\w$.-]+) *:(?= |$))? *(.*)$/;
const BLOCK_SCALAR = /^[|>][-+0-9]*$/;

/** The outline of the lines, and the place of `column` on line `cursorLine` (0-based) when given. */
export function readOutline(lines: readonly string[], cursor?: { line: number; column: number }): { root: OutlineNode; place?: OutlinePlace } {
  const root: OutlineNode = { key: '', indent: -1, line: -1, value: '', children: [] };
  const stack: OutlineNode[] = [root];
  let place: OutlinePlace | undefined;
  let blockIndent = -1;
  for (const [index, text] of lines.entries()) {
    const isCursorLine = cursor?.line === index;
    const indent = text.length - text.trimStart().length;
    // Lines of a `|` or `>` scalar are text, not keys (the cursor there is in a value).
    if (blockIndent >= 0 && (indent > blockIndent || text.trim() === '')) continue;
    blockIndent = -1;
    if (isCursorLine) place = placeOnLine(stack, text.slice(0, cursor.column));
    const trimmed = text.trim();
    if (trimmed === '' || trimmed.startsWith('#')) continue;
    const node = addLine(stack, text, index);
    if (node && BLOCK_SCALAR.test(node.value)) blockIndent = node.indent;
  }
  return { root, place };
}

function addLine(stack: OutlineNode[], text: string, line: number): OutlineNode | undefined {
  const match = LINE.exec(text)!;
  const [, spaces, dash, key, rest] = match;
  let indent = spaces!.length;
  let node: OutlineNode | undefined;
  if (dash) {
    node = push(stack, { key: '-', indent, line, value: key ? '' : plainValue(rest!), children: [] });
    indent += dash.length;
  }
  if (key) node = push(stack, { key, indent, line, value: plainValue(rest!), children: [] });
  return node;
}

function push(stack: OutlineNode[], node: OutlineNode): OutlineNode {
  popFor(stack, node.indent, node.key === '-');
  stack.at(-1)!.children.push(node);
  stack.push(node);
  return node;
}

/** Leaves on the stack only what a node at `indent` belongs to (an item may sit at its key's column). */
function popFor(stack: OutlineNode[], indent: number, isItem: boolean): void {
  for (;;) {
    const top = stack.at(-1)!;
    const ownsItemAtSameColumn = isItem && top.indent === indent && top.key !== '-' && top.value === '';
    if (top.indent < indent || ownsItemAtSameColumn || stack.length === 1) return;
    stack.pop();
  }
}

function placeOnLine(stack: OutlineNode[], before: string): OutlinePlace | undefined {
  const match = /^( *)(- +)?(?:([\w$.-]+) *: *)?(.*)$/.exec(before)!;
  const [, spaces, dash, key, typed] = match;
  if (!key && !/^[\w$.-]*$/.test(typed!)) return undefined;
  const probe = [...stack];
  let indent = spaces!.length;
  if (dash) {
    popFor(probe, indent, true);
    probe.push({ key: '-', indent, line: -1, value: '', children: [] });
    indent += dash.length;
  }
  popFor(probe, indent, false);
  return { ancestors: probe, valueOf: key, prefix: typed!, prefixColumn: before.length - typed!.length };
}

/** A scalar as written after `key:`, without its quotes or a trailing comment. */
export function plainValue(raw: string): string {
  const text = raw.trim();
  const quoted = /^(['"])(.*)\1$/.exec(text);
  if (quoted) return quoted[2]!;
  return text.replace(/\s+#.*$/, '');
}

/** The value of `key` among a node's children (`''` when absent). */
export function childValue(node: OutlineNode | undefined, key: string): string {
  return node?.children.find((child) => child.key === key)?.value ?? '';
}

/** The node at `keys` under `node`. */
export function childAt(node: OutlineNode, ...keys: string[]): OutlineNode | undefined {
  let current: OutlineNode | undefined = node;
  for (const key of keys) current = current?.children.find((child) => child.key === key);
  return current;
}
