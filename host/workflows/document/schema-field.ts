/** What a JSON Schema says about one field name read below a value of that schema. */
export type SchemaFieldAnswer =
  | { kind: 'field'; schema: Record<string, unknown> }
  /** The schema cannot say (no properties, extra properties allowed, a combinator, a `$ref`): anything goes. */
  | { kind: 'unknown' }
  /** The value is an object whose fields are all listed, and `name` is not one of them. */
  | { kind: 'absent'; fields: string[] }
  /** The value is a string, number, boolean or null: it has no fields at all. */
  | { kind: 'scalar'; type: string };

const SCALAR_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'null']);
const OPEN_KEYWORDS = ['anyOf', 'oneOf', 'allOf', '$ref', 'if', 'not', 'patternProperties', 'dependentSchemas', 'unevaluatedProperties'];

/**
 * Reads the schema of `name` below a value of `schema`, as JSONata would read the field: an
 * array's items are read one by one, so a field below an array is a field of its `items`. Only
 * an object schema listing its `properties` without allowing others (`additionalProperties`
 * absent or false) can say a name is absent; JSON Schema would allow extra keys when the
 * keyword is absent, but a memory schema lists the fields its records hold, so a name it does
 * not list is a typo far more often than a field stored without being declared.
 *
 * @example
 * schemaField({ type: 'object', properties: { name: { type: 'string' } } }, 'nme'); // { kind: 'absent', fields: ['name'] }
 */
export function schemaField(schema: Record<string, unknown>, name: string): SchemaFieldAnswer {
  const items = arrayItems(schema);
  if (items) return schemaField(items, name);
  if (OPEN_KEYWORDS.some((keyword) => schema[keyword] !== undefined)) return { kind: 'unknown' };
  const type = typeOf(schema);
  if (type !== undefined && SCALAR_TYPES.has(type)) return { kind: 'scalar', type };
  const properties = asSchema(schema.properties);
  if (!properties) return { kind: 'unknown' };
  const field = asSchema(properties[name]);
  if (field) return { kind: 'field', schema: field };
  if (schema.additionalProperties !== undefined && schema.additionalProperties !== false) return { kind: 'unknown' };
  return { kind: 'absent', fields: Object.keys(properties) };
}

function arrayItems(schema: Record<string, unknown>): Record<string, unknown> | undefined {
  return typeOf(schema) === 'array' ? asSchema(schema.items) ?? {} : undefined;
}

/** One declared type; a list of types (`['string', 'null']`) says too little to judge by. */
function typeOf(schema: Record<string, unknown>): string | undefined {
  return typeof schema.type === 'string' ? schema.type : undefined;
}

function asSchema(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}
