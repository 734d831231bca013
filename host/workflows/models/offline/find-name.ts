/**
 * How the offline model notices a person's name: in what the user says ("my name is Ada",
 * "call me Ada"), in a value it wrote to memory, or in the Working Memory block (a `- <label>:
 * <value>` line whose label mentions a name).
 */

const INTRODUCTION = /\b(?:my name is|my name's|call me)\s+([\p{L}][\p{L}'-]*)/iu;
const NAME_KEY = /name/i;

/** The name the user gives in `text`, capitalised; undefined when they give none. */
export function nameInText(text: string): string | undefined {
  const match = INTRODUCTION.exec(text);
  if (!match?.[1]) return undefined;
  return match[1].charAt(0).toUpperCase() + match[1].slice(1);
}

/** The value of the first `- …name…: value` line under `# Working Memory` in the system text. */
export function nameInWorkingMemory(system: string): string | undefined {
  const start = system.indexOf('# Working Memory');
  if (start < 0) return undefined;
  for (const line of system.slice(start).split('\n')) {
    const match = /^- ([^:]+): (.+)$/.exec(line.trim());
    if (match?.[1] && match[2] && NAME_KEY.test(match[1])) return unquote(match[2].trim());
  }
  return undefined;
}

/** The first string under a key mentioning a name, anywhere in a tool call's input. */
export function nameInValue(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  for (const [key, entry] of Object.entries(value)) {
    if (NAME_KEY.test(key) && typeof entry === 'string' && entry) return entry;
    const nested = nameInValue(entry);
    if (nested) return nested;
  }
  return undefined;
}

/** True when a property key is where a name belongs. */
export function isNameKey(key: string): boolean {
  return NAME_KEY.test(key);
}

/** Working Memory renders strings as they are, but tolerate a JSON-quoted one. */
function unquote(value: string): string {
  return value.startsWith('"') && value.endsWith('"') && value.length > 1 ? value.slice(1, -1) : value;
}
