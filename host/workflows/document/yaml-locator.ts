import { isAlias, isCollection, isMap, isScalar, isSeq, type Document, type LineCounter, type Node } from 'yaml';
import type { YamlPath } from './workflow-problem.ts';

/** A 1-based place in the YAML text. */
export interface YamlLocation {
  line: number;
  column: number;
}

/**
 * Finds where a path is written. A scalar is located at its value; a map or a list at the key
 * that names it, which is the line a person reads as "that entry". A path that does not exist
 * (a missing key) is located at its nearest existing ancestor. `valueOffset`, a character index
 * into a string value, moves the column inside a single-line scalar written as-is, so an
 * expression error points at its character; elsewhere it is ignored.
 */
export type YamlLocator = (path: YamlPath, valueOffset?: number) => YamlLocation | undefined;

export function createYamlLocator(text: string, document: Document, lineCounter: LineCounter): YamlLocator {
  return (path, valueOffset) => {
    const offset = offsetOf(text, document, path, valueOffset);
    if (offset === undefined) return undefined;
    const { line, col } = lineCounter.linePos(offset);
    return { line, column: col };
  };
}

interface Step {
  node: Node | null;
  /** Where the entry naming `node` starts: its key, or the list item itself. */
  entryOffset: number | undefined;
}

function offsetOf(text: string, document: Document, path: YamlPath, valueOffset: number | undefined): number | undefined {
  let current: Step = { node: document.contents, entryOffset: document.contents?.range?.[0] };
  let complete = true;
  for (const segment of path) {
    const next = childOf(resolved(document, current.node), segment);
    if (!next) {
      complete = false;
      break;
    }
    current = next;
  }
  const node = resolved(document, current.node);
  if (isScalar(node) && node.range) {
    const source = text.slice(node.range[0], node.range[1]);
    const inside = node.type === 'BLOCK_LITERAL' ? offsetInLiteralBlock(source, node.value, valueOffset) : offsetInScalar(source, node.value, valueOffset);
    return node.range[0] + (complete ? inside : 0);
  }
  return current.entryOffset ?? node?.range?.[0];
}

function childOf(node: Node | null, segment: string | number): Step | undefined {
  if (isMap(node)) {
    const pair = node.items.find((item) => isScalar(item.key) && String(item.key.value) === String(segment));
    if (!pair) return undefined;
    const key = pair.key as Node;
    return { node: (pair.value as Node | null) ?? null, entryOffset: key.range?.[0] };
  }
  if (isSeq(node) && typeof segment === 'number') {
    const item = node.items[segment] as Node | null | undefined;
    if (item === undefined) return undefined;
    return { node: item, entryOffset: item?.range?.[0] };
  }
  return undefined;
}

function resolved(document: Document, node: Node | null): Node | null {
  if (!isAlias(node)) return node;
  const target = node.resolve(document);
  return isCollection(target) || isScalar(target) ? target : null;
}

/**
 * Only a scalar on one line written as-is (plain, or quoted without escapes) maps each character
 * of its value to one character of the text.
 */
function offsetInScalar(source: string, value: unknown, valueOffset: number | undefined): number {
  if (valueOffset === undefined || typeof value !== 'string' || value.includes('\n')) return 0;
  const index = Math.min(Math.max(valueOffset, 0), Math.max(value.length - 1, 0));
  if (source === value) return index;
  if (source === `'${value}'` || source === `"${value}"`) return index + 1;
  return 0;
}

/**
 * A literal block (`|`, `|-`) keeps its lines as written, less their common indentation: the
 * character at `valueOffset` is on the same line of the block, that indentation further right.
 * Checked against the text, so an unusual block (an explicit indentation indicator) falls back
 * to the block's start.
 */
function offsetInLiteralBlock(source: string, value: unknown, valueOffset: number | undefined): number {
  if (valueOffset === undefined || typeof value !== 'string' || valueOffset >= value.length) return 0;
  const lineIndex = value.slice(0, valueOffset).split('\n').length - 1;
  const column = valueOffset - (value.lastIndexOf('\n', valueOffset - 1) + 1);
  const lines = source.split('\n');
  const content = lines.slice(1);
  const indent = Math.min(...content.filter((line) => line.trim() !== '').map((line) => /^ */.exec(line)![0].length));
  const line = content[lineIndex];
  if (line === undefined || !Number.isFinite(indent) || line[indent + column] !== value[valueOffset]) return 0;
  const lineStart = lines.slice(0, lineIndex + 1).reduce((offset, text) => offset + text.length + 1, 0);
  return lineStart + indent + column;
}
