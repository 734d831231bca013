import { isStorableText } from './find-unstorable-text.ts';

/**
 * Whether `value` is made only of what JSON.stringify writes as it is and storableData copies as
 * it is: primitives, plain objects and arrays (no `toJSON` of their own), and Dates. A Buffer, a
 * class instance or a boxed primitive is not: storableData copies its own properties, which
 * JSON.stringify does not (a Buffer has a `toJSON`). A key whose value JSON.stringify drops
 * (undefined, a function, a symbol) must be storable too, since storableData keeps it until then
 * and two keys may become one. Other strings are checked only with `checkText` (storableJson
 * finds them in its text instead): then true means storableData would copy the value unchanged.
 * @example onlyPlainData({ at: new Date(), list: [1, 'a'] }) // true
 * @example onlyPlainData({ bytes: Buffer.from('a') }) // false
 * @example onlyPlainData({ text: 'a\u0000' }, true) // false
 */
export function onlyPlainData(value: unknown, checkText = false): boolean {
  if (typeof value === 'string') return !checkText || isStorableText(value);
  if (typeof value !== 'object' || value === null) return true;
  if (Array.isArray(value)) {
    if (Object.getPrototypeOf(value) !== Array.prototype || (value as { toJSON?: unknown }).toJSON !== undefined) return false;
    for (let index = 0; index < value.length; index++) if (!onlyPlainData(value[index], checkText)) return false;
    return true;
  }
  const prototype: unknown = Object.getPrototypeOf(value);
  if (prototype === Date.prototype) return true;
  if (prototype !== Object.prototype && prototype !== null) return false;
  for (const key in value) {
    if (key === 'toJSON' || (checkText && !isStorableText(key))) return false;
    const item = (value as Record<string, unknown>)[key];
    if (typeof item === 'object' || typeof item === 'string') {
      if (!onlyPlainData(item, checkText)) return false;
    } else if ((item === undefined || typeof item === 'function' || typeof item === 'symbol') && !isStorableText(key)) {
      return false;
    }
  }
  return true;
}
