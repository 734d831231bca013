/**
 * `object[key] = value`, except that a `__proto__` key becomes an own property like any other
 * instead of replacing the object's prototype (which would drop the key, or make the value's
 * keys look inherited to whatever reads it next, such as a JSON Schema check). For copies of
 * JSON data, whose keys come from outside.
 * @example setOwnProperty(copy, '__proto__', null) // copy now has an own "__proto__" key
 */
export function setOwnProperty(object: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
  else object[key] = value;
}
