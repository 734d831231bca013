import { ITEM_TYPES, PROPERTY_TYPES, emptyRow, type ItemType, type PropertyRow, type PropertyType } from './schema-rows.ts';

/** Edits the properties of a memory schema, one row each. */
export function SchemaEditor({ rows, onChange, disabled }: { rows: PropertyRow[]; onChange: (rows: PropertyRow[]) => void; disabled?: boolean }) {
  const update = (key: number, change: Partial<PropertyRow>) => onChange(rows.map((row) => (row.key === key ? { ...row, ...change } : row)));
  return (
    <fieldset className="schema-editor" disabled={disabled}>
      <legend>Properties</legend>
      <table>
        <thead>
          <tr>
            <th>Name</th>
            <th>Type</th>
            <th>Items</th>
            <th>Title</th>
            <th>Description</th>
            <th>Required</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {rows.map((row, index) => (
            <tr key={row.key} data-testid={`property-${index}`}>
              <td>
                <input aria-label="Property name" value={row.name} onChange={(e) => update(row.key, { name: e.target.value })} required />
              </td>
              <td>
                <select aria-label="Property type" value={row.type} onChange={(e) => update(row.key, { type: e.target.value as PropertyType })}>
                  {PROPERTY_TYPES.map((type) => (
                    <option key={type}>{type}</option>
                  ))}
                </select>
              </td>
              <td>
                {row.type === 'array' && (
                  <select aria-label="Item type" value={row.itemType} onChange={(e) => update(row.key, { itemType: e.target.value as ItemType })}>
                    {ITEM_TYPES.map((type) => (
                      <option key={type}>{type}</option>
                    ))}
                  </select>
                )}
              </td>
              <td>
                <input aria-label="Property title" value={row.title} onChange={(e) => update(row.key, { title: e.target.value })} />
              </td>
              <td>
                <input aria-label="Property description" value={row.description} onChange={(e) => update(row.key, { description: e.target.value })} />
              </td>
              <td>
                <input type="checkbox" aria-label="Required" checked={row.required} onChange={(e) => update(row.key, { required: e.target.checked })} />
              </td>
              <td>
                <button type="button" onClick={() => onChange(rows.filter((other) => other.key !== row.key))} aria-label={`Remove property ${row.name}`}>
                  Remove
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <button type="button" onClick={() => onChange([...rows, emptyRow()])}>
        Add property
      </button>
    </fieldset>
  );
}
