import { onlyPlainData } from './only-plain-data.ts';
import { setOwnProperty } from './set-own-property.ts';

/**
 * PostgreSQL's jsonb refuses the NUL character (\u0000) and strings that are not valid Unicode
 * (an unpaired surrogate). Both arrive easily — a platform's message, a model's answer, a
 * JSONata string function — and one such string would fail a whole statement: a webhook
 * batch, a step record. So text is made storable before it is stored: each of those
 * characters becomes U+FFFD, the replacement character, and nothing else changes.
 */
/** The text with NUL and unpaired surrogates replaced by U+FFFD. */
export function storableText(text: string): string {
  const wellFormed = text.isWellFormed() ? text : text.toWellFormed();
  return wellFormed.includes('\u0000') ? wellFormed.replaceAll('\u0000', '\uFFFD') : wellFormed;
}

/** A deep copy of JSON-like data whose strings (values and keys) are storable. */
export function storableData<T>(value: T): T {
  if (typeof value === 'string') return storableText(value) as T;
  if (Array.isArray(value)) return value.map(storableData) as T;
  if (value === null || typeof value !== 'object' || value instanceof Date) return value;
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) setOwnProperty(copy, storableText(key), storableData(item));
  return copy as T;
}

/**
 * `value` itself when storableData would copy it unchanged (plain data, every string storable),
 * else that copy: for data only read after this, which most often needs no copy.
 */
export function storableAsIs<T>(value: T): T {
  return onlyPlainData(value, true) ? value : storableData(value);
}

/**
 * A string JSON.stringify writes with an escape jsonb refuses: `\u0000`, or an unpaired
 * surrogate (`\ud800`–`\udfff`; a paired one is written as it is). JSON.stringify writes these
 * escapes in lower case. Text that merely spells one (a backslash, then `u0000`) matches too, and
 * only costs the exact path.
 */
const UNSTORABLE_ESCAPE = /\\u(?:0000|d[89a-f])/;

/**
 * JSON text for a jsonb column: like JSON.stringify, with every string made storable. Most values
 * need no change, so the text is written first and the copy made only when it holds an escape
 * jsonb refuses or the value holds something the copy would not write as it is (onlyPlainData):
 * the result is the copy's text either way, at about the price of one JSON.stringify.
 */
export function storableJson(value: unknown): string {
  try {
    const json = JSON.stringify(value);
    if (!UNSTORABLE_ESCAPE.test(json) && onlyPlainData(value)) return json;
  } catch {
    // Whatever the direct text could not be (a cycle, a BigInt), the copy's path below says.
  }
  return JSON.stringify(storableData(value));
}
