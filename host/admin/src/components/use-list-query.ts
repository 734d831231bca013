import { useSearchParams } from 'react-router';

/** The parameters this hook owns; the rest of the URL's query belongs to the page. */
const LIST_KEYS = new Set(['q', 'sort', 'offset', 'limit']);

export interface ListQuery {
  q: string;
  sort: string;
  offset: number;
  limit: number;
  set: (change: Partial<{ q: string; sort: string; offset: number }>) => void;
}

/** Search, sort and paging kept in the URL, so a reload or a shared link shows the same page. */
export function useListQuery(defaultSort: string, defaultLimit = 20): ListQuery {
  const [params, setParams] = useSearchParams();
  const q = params.get('q') ?? '';
  const sort = params.get('sort') ?? defaultSort;
  const offset = Number(params.get('offset') ?? 0) || 0;
  // `?limit=` overrides the page size (1-200, the API's bounds).
  const limit = Math.min(200, Math.max(1, Number(params.get('limit')) || defaultLimit));
  const set: ListQuery['set'] = (change) => {
    const next = { q, sort, offset, ...change };
    // A new search or sort starts on the first page.
    if (change.q !== undefined || change.sort !== undefined) next.offset = change.offset ?? 0;
    // Other parameters are a page's own filters (`?status=failed`): kept as they are.
    const query: Record<string, string> = Object.fromEntries([...params].filter(([key]) => !LIST_KEYS.has(key)));
    if (next.q) query.q = next.q;
    if (next.sort !== defaultSort) query.sort = next.sort;
    if (next.offset) query.offset = String(next.offset);
    if (limit !== defaultLimit) query.limit = String(limit);
    setParams(query, { replace: true });
  };
  return { q, sort, offset, limit, set };
}
