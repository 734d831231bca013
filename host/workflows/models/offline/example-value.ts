import { isNameKey } from './find-name.ts';

/** What the offline model knows that may fill a value: the user's text and a name it noticed. */
export interface ExampleHints {
  text: string;
  name: string | undefined;
}

type JsonSchema = Record<string, unknown>;

const STRING_FORMATS: Record<string, string> = {
  'date-time': '2000-01-01T00:00:00Z',
  date: '2000-01-01',
  time: '00:00:00Z',
  email: 'someone@example.com',
  uri: 'https://example.com/',
  url: 'https://example.com/',
  uuid: '00000000-0000-4000-8000-000000000000',
};

/**
 * A deterministic value valid for `schema`, for the offline model's structured output. Objects
 * get their required properties, plus a name property when a name is known (so extraction from
 * "my name is Ada" yields `{ name: 'Ada' }`); strings take the name, a sample for their format,
 * or the user's text; numbers their minimum or 0; arrays their minimum number of items.
 * Honoured: type, const, enum, anyOf/oneOf (first branch), required, min/max bounds and lengths,
 * format. Not honoured: pattern, multipleOf, allOf, $ref; a schema relying on them may fail
 * validation, which the action then reports like any invalid model output.
 *
 * @example
 * exampleValue({ type: 'object', properties: { name: { type: 'string' } } }, { text: 'hi', name: 'Ada' });
 * // { name: 'Ada' }
 */
export function exampleValue(schema: unknown, hints: ExampleHints, key = ''): unknown {
  if (!isSchema(schema)) return null;
  if ('const' in schema) return schema['const'];
  if (Array.isArray(schema['enum']) && schema['enum'].length > 0) return schema['enum'][0];
  const branches = schema['anyOf'] ?? schema['oneOf'];
  if (Array.isArray(branches) && branches.length > 0) return exampleValue(branches[0], hints, key);
  switch (typeOf(schema)) {
    case 'object':
      return exampleObject(schema, hints);
    case 'array':
      return Array.from({ length: numberOr(schema['minItems'], 0) }, () => exampleValue(schema['items'], hints, key));
    case 'string':
      return exampleString(schema, hints, key);
    case 'integer':
      return Math.ceil(exampleNumber(schema));
    case 'number':
      return exampleNumber(schema);
    case 'boolean':
      return false;
    default:
      return null;
  }
}

function exampleObject(schema: JsonSchema, hints: ExampleHints): Record<string, unknown> {
  const properties = isSchema(schema['properties']) ? schema['properties'] : {};
  const required = new Set(Array.isArray(schema['required']) ? schema['required'].map(String) : []);
  const value: Record<string, unknown> = {};
  for (const [key, propertySchema] of Object.entries(properties)) {
    const wanted = required.has(key) || (hints.name !== undefined && isNameKey(key) && typeOf(propertySchema) === 'string');
    if (wanted) value[key] = exampleValue(propertySchema, hints, key);
  }
  return value;
}

function exampleString(schema: JsonSchema, hints: ExampleHints, key: string): string {
  const format = typeof schema['format'] === 'string' ? STRING_FORMATS[schema['format']] : undefined;
  const base = format ?? (isNameKey(key) && hints.name ? hints.name : hints.text);
  const clipped = base.slice(0, numberOr(schema['maxLength'], base.length));
  return clipped.padEnd(numberOr(schema['minLength'], 0), '.');
}

function exampleNumber(schema: JsonSchema): number {
  const exclusiveMinimum = typeof schema['exclusiveMinimum'] === 'number' ? schema['exclusiveMinimum'] + 1 : undefined;
  const low = numberOr(schema['minimum'], exclusiveMinimum ?? 0);
  const high = typeof schema['maximum'] === 'number' ? schema['maximum'] : Number.POSITIVE_INFINITY;
  return Math.min(low, high);
}

/** The schema's type: the first non-null one of a list, else guessed from its keywords. */
function typeOf(schema: unknown): string | undefined {
  if (!isSchema(schema)) return undefined;
  const type = schema['type'];
  if (typeof type === 'string') return type;
  if (Array.isArray(type)) return type.find((entry) => entry !== 'null') ?? 'null';
  if ('properties' in schema) return 'object';
  if ('items' in schema) return 'array';
  return undefined;
}

function numberOr(value: unknown, fallback: number): number {
  return typeof value === 'number' ? value : fallback;
}

function isSchema(value: unknown): value is JsonSchema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
