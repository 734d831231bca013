import type { Binding } from './binding.ts';
import type { JsonSchema } from './json-schema.ts';

/** Memory schemas nest little; this keeps a self-similar schema from being walked without end. */
const MAX_DEPTH = 8;

/**
 * The fields an expression may read below `$context.memory.<slug>`, from its definition's JSON
 * Schema: each property with its type as the detail and its description as the info, nested
 * objects with their own fields. An array's items are read one by one (`tags.label`), so an
 * array of objects offers the fields of its items.
 *
 * @example
 * memoryFieldBindings({ type: 'object', properties: { name: { type: 'string', description: 'Name' } } });
 * // [{ name: 'name', detail: 'string', info: 'Name' }]
 */
export function memoryFieldBindings(schema: JsonSchema, depth = 0): Binding[] | undefined {
  const objectSchema = schema.type === 'array' && schema.items ? schema.items : schema;
  if (!objectSchema.properties || depth >= MAX_DEPTH) return undefined;
  return Object.entries(objectSchema.properties).map(([name, property]) => {
    const children = memoryFieldBindings(property, depth + 1);
    return { name, info: property.description ?? '', detail: typeLabel(property), ...(children && { children }) };
  });
}

function typeLabel(schema: JsonSchema): string {
  const type = Array.isArray(schema.type) ? schema.type.join(' | ') : (schema.type ?? 'any');
  const items = schema.type === 'array' && schema.items ? typeLabel(schema.items) : undefined;
  return items ? `array of ${items}` : type;
}
