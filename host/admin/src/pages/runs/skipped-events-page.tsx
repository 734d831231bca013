import { Link, useParams } from 'react-router';
import type { InboundEvent } from '../../api/api-types.ts';
import { useSession } from '../../auth/session-context.tsx';
import { formatDate } from '../../components/format-date.ts';
import { ListTable } from '../../components/list-table.tsx';
import { useList } from '../../components/use-list.ts';
import { plainSkipReason } from './plain-skip-reason.ts';
import { useRetryEvent } from './use-retry-event.ts';
import { useSourceNames } from './use-source-names.ts';

/**
 * Skipped events: accepted, stored, and never answered because no workflow could run for them
 * (issue 14: they used to be silent). `/skipped-events/:sourceId` shows one source's only; the id
 * sits in the path, not the query, because the list's paging rewrites the query.
 */
export function SkippedEventsPage() {
  const { can } = useSession();
  const { sourceId } = useParams();
  const names = useSourceNames();
  const filter: Record<string, string> = sourceId ? { status: 'skipped', sourceId } : { status: 'skipped' };
  const list = useList<InboundEvent>('/api/inbound-events', { sort: '-receivedAt', search: false, filter });
  const { retry, retrying, error } = useRetryEvent(list.state.reload);
  const sourceName = (id: string) => names.get(id) ?? id.slice(0, 8);
  return (
    <section>
      <h1>{sourceId ? `Skipped events of ${sourceName(sourceId)}` : 'Skipped events'}</h1>
      <p>Events a source accepted that no workflow answered. Fix the cause, then retry them.</p>
      {sourceId && <Link to="/skipped-events">All skipped events</Link>}
      {error && <p className="error" role="alert">{error}</p>}
      <ListTable list={list} empty="No skipped events: every event found a workflow." columns={['Received', 'Event', 'Source', 'Why it was not answered', '']}>
        {(event) => (
          <tr key={event.id}>
            <td>{formatDate(event.receivedAt)}</td>
            <td>
              <code>{event.eventId}</code>
            </td>
            <td>
              <Link to={`/sources/${event.sourceId}`}>{sourceName(event.sourceId)}</Link>
            </td>
            <td className="status-skipped" title={event.reason ?? undefined}>
              {plainSkipReason(event.reason)}
            </td>
            <td>
              <button type="button" disabled={!can('inbox:update') || retrying === event.id} onClick={() => retry(event)}>
                Retry
              </button>
            </td>
          </tr>
        )}
      </ListTable>
    </section>
  );
}
