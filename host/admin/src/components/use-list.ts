import { withQuery } from '../api/api-client.ts';
import type { Page } from '../api/api-types.ts';
import { useApiData, type ApiData } from '../api/use-api-data.ts';
import { useListQuery, type ListQuery } from './use-list-query.ts';

/** A paged list: its search, sort and page (kept in the URL) and the page loaded for them. */
export interface List<T> extends ListQuery {
  state: ApiData<Page<T>>;
}

/**
 * Loads `path` as a paged list, again whenever the search, sort or page changes. `filter` adds
 * fixed query parameters; `search: false` leaves `q` out for lists that cannot be searched.
 *
 * @example
 * const list = useList<Run>('/api/runs', { sort: '-startedAt', search: false });
 */
export function useList<T>(
  path: string,
  { sort, search = true, filter = {} }: { sort: string; search?: boolean; filter?: Record<string, string> },
): List<T> {
  const query = useListQuery(sort);
  const state = useApiData<Page<T>>(
    withQuery(path, { ...filter, q: search ? query.q : undefined, sort: query.sort, limit: query.limit, offset: query.offset }),
  );
  return { ...query, state };
}
