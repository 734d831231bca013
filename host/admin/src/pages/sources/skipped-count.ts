import { withQuery } from '../../api/api-client.ts';
import type { InboundEvent, Page } from '../../api/api-types.ts';
import { useApiData } from '../../api/use-api-data.ts';

/**
 * How many of a source's events were skipped (the list's total; one item is fetched because only
 * the count is wanted). Undefined while loading, or when the role may not read the inbox.
 */
export function useSkippedCount(sourceId: string): number | undefined {
  const { data } = useApiData<Page<InboundEvent>>(withQuery('/api/inbound-events', { status: 'skipped', sourceId, limit: 1 }));
  return data?.total;
}
