import { useSearchParams } from 'react-router';

/** The runs list's filters, as the URL and the API name them. */
export interface RunFilters {
  workflowId?: string;
  status?: 'running' | 'succeeded' | 'failed';
  mode?: 'live' | 'test';
  /** A subscriber's id, or `test:<name>`. */
  ownerId?: string;
}

const FILTER_KEYS = ['workflowId', 'status', 'mode', 'ownerId'] as const;

/**
 * The runs list's filters kept in the URL (`/runs?status=failed&ownerId=…`), so a filtered view
 * can be reloaded and shared. Changing one goes back to the first page; search and sort stay.
 * @example const { filters, setFilter } = useRunFilters(); setFilter('status', 'failed');
 */
export function useRunFilters(): { filters: RunFilters; setFilter: (key: keyof RunFilters, value: string | undefined) => void } {
  const [params, setParams] = useSearchParams();
  const filters = Object.fromEntries(FILTER_KEYS.flatMap((key) => (params.get(key) ? [[key, params.get(key)!]] : []))) as RunFilters;
  const setFilter = (key: keyof RunFilters, value: string | undefined) => {
    setParams(
      (previous) => {
        const next = new URLSearchParams(previous);
        if (value) next.set(key, value);
        else next.delete(key);
        next.delete('offset');
        return next;
      },
      { replace: true },
    );
  };
  return { filters, setFilter };
}
