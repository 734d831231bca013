import { useState } from 'react';
import { slugify } from '../../../../memory/definitions/slugify.ts';
import type { MemoryDefinition, MemoryScope } from '../../api/api-types.ts';
import { fieldToTtl, ttlToField } from './format-ttl.ts';
import { emptyRow, rowsToSchema, schemaToRows, type PropertyRow } from './schema-rows.ts';

/** The memory definition form's fields, and the request body they make. */
export function useMemoryFormState(definition: MemoryDefinition | undefined) {
  const [name, setNameValue] = useState(definition?.name ?? '');
  const [slug, setSlug] = useState(definition?.slug ?? '');
  // A new definition's slug follows its name until the slug is edited by hand.
  const [slugTouched, setSlugTouched] = useState(definition !== undefined);
  const [scope, setScope] = useState<MemoryScope>(definition?.scope ?? 'global');
  const initialTtl = ttlToField(definition?.ttlSeconds ?? null);
  const [ttlAmount, setTtlAmount] = useState(initialTtl.amount);
  const [ttlUnit, setTtlUnit] = useState(initialTtl.unitSeconds);
  const initialRows = definition ? schemaToRows(definition.schema) : [emptyRow()];
  const [rows, setRows] = useState<PropertyRow[]>(initialRows ?? []);
  // A schema the row editor cannot show is edited as JSON.
  const [schemaJson, setSchemaJson] = useState(initialRows ? undefined : JSON.stringify(definition?.schema, null, 2));

  const setName = (value: string) => {
    setNameValue(value);
    if (!slugTouched) setSlug(slugify(value));
  };
  const editSlug = (value: string) => {
    setSlugTouched(true);
    setSlug(value);
  };
  const body = () => ({
    name,
    slug,
    scope,
    ttlSeconds: fieldToTtl(ttlAmount, ttlUnit),
    schema: schemaJson === undefined ? rowsToSchema(rows) : parseJson(schemaJson),
  });
  return {
    fields: { name, slug, scope, ttlAmount, ttlUnit, rows, schemaJson },
    set: { name: setName, slug: editSlug, scope: setScope, ttlAmount: setTtlAmount, ttlUnit: setTtlUnit, rows: setRows, schemaJson: setSchemaJson },
    body,
  };
}

/** Unparseable JSON is sent as text: the server answers 422 next to the schema. */
function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
