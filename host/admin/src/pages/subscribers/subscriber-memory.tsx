import { Link } from 'react-router';
import type { ListedMemoryRecord, Page } from '../../api/api-types.ts';
import { useApiData } from '../../api/use-api-data.ts';
import { LoadState } from '../../components/load-state.tsx';
import { MemoryRecordItem } from './memory-record-item.tsx';

/** Records beyond this many are left out (the API's page limit); the page says so. */
const MAX_RECORDS = 200;

/**
 * A subscriber's memory records grouped by definition (slug), each with its value, scope and
 * expiry, editable and erasable as the caller's role allows.
 */
export function SubscriberMemory({ ownerId }: { ownerId: string }) {
  const state = useApiData<Page<ListedMemoryRecord>>(`/api/memory-records?ownerId=${encodeURIComponent(ownerId)}&sort=slug&limit=${MAX_RECORDS}`);
  return (
    <section aria-label="Memory">
      <h2>Memory</h2>
      <LoadState state={state} isEmpty={(page) => page.total === 0} empty="Nothing remembered about them.">
        {(page) => (
          <>
            {[...groupBySlug(page.items)].map(([slug, records]) => (
              <section key={slug} className="memory-group" aria-label={`Memory ${slug}`}>
                <h3>
                  <Link to={`/workflows/memory/${records[0]!.definitionId}`}>
                    <code>{slug}</code>
                  </Link>
                </h3>
                <ul className="plain">
                  {records.map((record) => (
                    <MemoryRecordItem key={record.id} record={record} onChanged={state.reload} />
                  ))}
                </ul>
              </section>
            ))}
            {page.total > page.items.length && <p className="notice">Showing {page.items.length} of {page.total} records.</p>}
          </>
        )}
      </LoadState>
    </section>
  );
}

function groupBySlug(records: ListedMemoryRecord[]): Map<string, ListedMemoryRecord[]> {
  const groups = new Map<string, ListedMemoryRecord[]>();
  for (const record of records) groups.set(record.slug, [...(groups.get(record.slug) ?? []), record]);
  return groups;
}
