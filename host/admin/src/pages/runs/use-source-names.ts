import type { Page, Source } from '../../api/api-types.ts';
import { useApiData } from '../../api/use-api-data.ts';

/** Source names by id, to label events (an id is shown while they load, or for a deleted one). */
export function useSourceNames(): Map<string, string> {
  const { data } = useApiData<Page<Source>>('/api/sources?limit=200');
  return new Map(data?.items.map((source) => [source.id, source.name]) ?? []);
}
