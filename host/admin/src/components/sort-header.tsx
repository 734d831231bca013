/** A column header that sorts by `field`, toggling `field` / `-field`. */
export function SortHeader({ field, label, sort, onSort }: { field: string; label: string; sort: string; onSort: (sort: string) => void }) {
  const direction = sort === field ? 'ascending' : sort === `-${field}` ? 'descending' : 'none';
  const next = sort === field ? `-${field}` : field;
  return (
    <th aria-sort={direction}>
      <button type="button" className="link" onClick={() => onSort(next)}>
        {label}
        {direction === 'ascending' ? ' ▲' : direction === 'descending' ? ' ▼' : ''}
      </button>
    </th>
  );
}
