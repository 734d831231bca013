import { setOwnProperty } from './set-own-property.ts';
import { storableData } from './storable.ts';

/**
 * JSON data as PostgreSQL's jsonb gives it back: text made storable (see storableData), and each
 * object's keys in jsonb's order, shorter keys first, then by their UTF-8 bytes. A value shown
 * before it is stored (a staged memory write, see StagedMemoryWrite.preview) then reads exactly
 * as it will once stored: `$keys()` and a stringified object give the same answer before and after.
 * @example asJsonbStores({ name: 'Ada', id: 1 }) // { id: 1, name: 'Ada' }
 */
export function asJsonbStores<T>(value: T): T {
  return inJsonbKeyOrder(JSON.parse(JSON.stringify(storableData(value)) ?? 'null')) as T;
}

function inJsonbKeyOrder(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(inJsonbKeyOrder);
  if (value === null || typeof value !== 'object') return value;
  const ordered: Record<string, unknown> = {};
  const keys = Object.keys(value).map((key) => ({ key, bytes: Buffer.from(key, 'utf8') }));
  keys.sort((a, b) => a.bytes.length - b.bytes.length || Buffer.compare(a.bytes, b.bytes));
  for (const { key } of keys) setOwnProperty(ordered, key, inJsonbKeyOrder((value as Record<string, unknown>)[key]));
  return ordered;
}
