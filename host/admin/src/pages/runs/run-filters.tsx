import type { RunFilters } from './use-run-filters.ts';

/**
 * The filter bar above the runs: workflow, status, mode, the subscriber chosen from a row (shown
 * with a way to clear it), and the search box.
 */
export function RunFilterBar({
  filters,
  setFilter,
  workflowNames,
  subscriberLabel,
  q,
  onSearch,
}: {
  filters: RunFilters;
  setFilter: (key: keyof RunFilters, value: string | undefined) => void;
  workflowNames: Map<string, string>;
  subscriberLabel: string | undefined;
  q: string;
  onSearch: (q: string) => void;
}) {
  return (
    <div className="run-filters" role="search" aria-label="Filter runs">
      <select aria-label="Workflow" value={filters.workflowId ?? ''} onChange={(e) => setFilter('workflowId', e.target.value || undefined)}>
        <option value="">All workflows</option>
        {[...workflowNames].map(([id, name]) => (
          <option key={id} value={id}>
            {name}
          </option>
        ))}
      </select>
      <select aria-label="Status" value={filters.status ?? ''} onChange={(e) => setFilter('status', e.target.value || undefined)}>
        <option value="">Any status</option>
        <option value="running">running</option>
        <option value="succeeded">succeeded</option>
        <option value="failed">failed</option>
      </select>
      <select aria-label="Mode" value={filters.mode ?? ''} onChange={(e) => setFilter('mode', e.target.value || undefined)}>
        <option value="">Live and test</option>
        <option value="live">live</option>
        <option value="test">test</option>
      </select>
      {filters.ownerId && (
        <span className="filter-chip" aria-label="Subscriber filter">
          Subscriber: {subscriberLabel ?? filters.ownerId}{' '}
          <button type="button" className="link" aria-label="Show every subscriber's runs" onClick={() => setFilter('ownerId', undefined)}>
            ✕
          </button>
        </span>
      )}
      <input
        type="search"
        aria-label="Search runs"
        placeholder="Search subscriber, run id, error"
        maxLength={100}
        defaultValue={q}
        onChange={(e) => onSearch(e.target.value)}
      />
    </div>
  );
}
