/** The property types the schema editor offers; arrays take one of the scalar types as items. */
export const PROPERTY_TYPES = ['string', 'number', 'integer', 'boolean', 'array'] as const;
export const ITEM_TYPES = ['string', 'number', 'integer', 'boolean'] as const;
export type PropertyType = (typeof PROPERTY_TYPES)[number];
export type ItemType = (typeof ITEM_TYPES)[number];

/** One row of the schema editor: one top-level property of the memory schema. */
export interface PropertyRow {
  key: number;
  name: string;
  type: PropertyType;
  itemType: ItemType;
  title: string;
  description: string;
  required: boolean;
}

let nextKey = 1;

export function emptyRow(): PropertyRow {
  return { key: nextKey++, name: '', type: 'string', itemType: 'string', title: '', description: '', required: false };
}

/**
 * The strict object schema the API stores: named properties with type and
 * description, `required` only when some are, `additionalProperties: false`.
 */
export function rowsToSchema(rows: PropertyRow[]): Record<string, unknown> {
  const properties: Record<string, Record<string, unknown>> = {};
  for (const row of rows) {
    const property: Record<string, unknown> = { type: row.type };
    if (row.type === 'array') property.items = { type: row.itemType };
    if (row.title.trim()) property.title = row.title.trim();
    property.description = row.description;
    properties[row.name.trim()] = property;
  }
  const required = rows.filter((row) => row.required).map((row) => row.name.trim());
  return { type: 'object', properties, ...(required.length > 0 ? { required } : {}), additionalProperties: false };
}

const KNOWN_KEYS = new Set(['type', 'items', 'title', 'description']);

/**
 * The rows for a stored schema, or undefined when it uses more than the editor shows (nested
 * objects, formats, enums…): such a schema is edited as JSON so nothing is lost.
 */
export function schemaToRows(schema: Record<string, unknown>): PropertyRow[] | undefined {
  const properties = schema.properties as Record<string, Record<string, unknown>> | undefined;
  if (!properties) return undefined;
  const required = new Set((schema.required as string[] | undefined) ?? []);
  const rows: PropertyRow[] = [];
  for (const [name, property] of Object.entries(properties)) {
    const row = toRow(name, property, required.has(name));
    if (!row) return undefined;
    rows.push(row);
  }
  return rows;
}

function toRow(name: string, property: Record<string, unknown>, required: boolean): PropertyRow | undefined {
  if (Object.keys(property).some((key) => !KNOWN_KEYS.has(key))) return undefined;
  if (!(PROPERTY_TYPES as readonly unknown[]).includes(property.type)) return undefined;
  const items = property.items as Record<string, unknown> | undefined;
  if (property.type === 'array' && (!items || Object.keys(items).length !== 1 || !(ITEM_TYPES as readonly unknown[]).includes(items.type))) {
    return undefined;
  }
  return {
    ...emptyRow(),
    name,
    type: property.type as PropertyType,
    itemType: (items?.type as ItemType | undefined) ?? 'string',
    title: typeof property.title === 'string' ? property.title : '',
    description: typeof property.description === 'string' ? property.description : '',
    required,
  };
}
