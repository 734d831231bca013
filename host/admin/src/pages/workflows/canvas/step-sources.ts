import { isMap, isScalar, isSeq, parseDocument, type Node } from 'yaml';

/** A range of the YAML text, as character offsets. */
export interface TextRange {
  from: number;
  to: number;
}

/** Where a flow step is written: its `flow` item, and the `defs` entry of the task it runs. */
export interface StepSource {
  position: number;
  task: string;
  item: TextRange;
  /** From the def's name to the end of its value; undefined while `do` names no def. */
  def?: TextRange;
}

let cached: { yaml: string; sources: StepSource[] } | undefined;

/**
 * Where each flow step and its task def sit in the text, read with `yaml`'s node ranges. The
 * last answer is kept: the cursor moves far more often than the text changes.
 *
 * @example
 * stepSources('defs:\n  hi: { kind: task }\nflow:\n  - do: hi\n')[0] // { position: 0, task: 'hi', item: {…}, def: {…} }
 */
export function stepSources(yaml: string): StepSource[] {
  if (cached?.yaml !== yaml) cached = { yaml, sources: readSources(yaml) };
  return cached.sources;
}

function readSources(yaml: string): StepSource[] {
  const document = parseDocument(yaml, { logLevel: 'silent' });
  const defs = document.get('defs', true);
  const flow = document.get('flow', true);
  if (!isSeq(flow)) return [];
  return flow.items.map((item, position) => {
    const task = isMap(item) ? String(item.get('do') ?? '') : '';
    const pair = isMap(defs) ? defs.items.find((entry) => isScalar(entry.key) && entry.key.value === task) : undefined;
    const def = pair && rangeOf(yaml, pair.key as Node, pair.value as Node | null);
    return { position, task, item: rangeOf(yaml, item as Node, item as Node), ...(def ? { def } : {}) };
  });
}

/** From `start` to the end of `end`'s value, without the line break and blank lines a block value ends with. */
function rangeOf(yaml: string, start: Node, end: Node | null): TextRange {
  const from = start.range?.[0] ?? 0;
  let to = end?.range?.[1] ?? start.range?.[1] ?? from;
  while (to > from && /\s/.test(yaml.charAt(to - 1))) to--;
  return { from, to };
}

/**
 * The step whose YAML holds `offset`: the flow item around it, else the first step that runs the
 * task def around it (a task run twice is one def: its first step stands for it).
 */
export function stepAtOffset(yaml: string, offset: number): number | undefined {
  const sources = stepSources(yaml);
  const inside = (range: TextRange | undefined) => range !== undefined && offset >= range.from && offset <= range.to;
  return sources.find((source) => inside(source.item))?.position ?? sources.find((source) => inside(source.def))?.position;
}

/**
 * What clicking a step selects in the text: its task def, where its action and inputs are
 * written (what an author edits), or the flow item while `do` names no def.
 */
export function stepSelection(yaml: string, position: number): TextRange | undefined {
  const source = stepSources(yaml)[position];
  return source && (source.def ?? source.item);
}
