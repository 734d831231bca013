import type { InboundEvent } from '../../api/api-types.ts';
import { useSession } from '../../auth/session-context.tsx';
import { formatDate } from '../../components/format-date.ts';
import { ListTable } from '../../components/list-table.tsx';
import { useList } from '../../components/use-list.ts';
import { useRetryEvent } from './use-retry-event.ts';

/** Dead letters: inbound events whose every retry failed; each can be queued again. */
export function DeadLettersPage() {
  const { can } = useSession();
  const list = useList<InboundEvent>('/api/inbound-events', { sort: '-receivedAt', search: false, filter: { status: 'failed' } });
  const { retry, retrying, error } = useRetryEvent(list.state.reload);
  return (
    <section>
      <h1>Dead letters</h1>
      {error && <p className="error" role="alert">{error}</p>}
      <ListTable
        list={list}
        empty="No dead letters: every event was processed or is still queued."
        columns={['Received', 'Event', 'Source', 'Attempts', 'Last error', '']}
      >
        {(event) => (
          <tr key={event.id}>
            <td>{formatDate(event.receivedAt)}</td>
            <td>
              <code>{event.eventId}</code>
            </td>
            <td>
              <code>{event.sourceId.slice(0, 8)}</code>
            </td>
            <td>{event.attempts}</td>
            <td className="status-failed">{event.reason}</td>
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
