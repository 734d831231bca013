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

/** JSON text for a jsonb column: like JSON.stringify, with every string made storable. */
export function storableJson(value: unknown): string {
  return JSON.stringify(storableData(value));
}
