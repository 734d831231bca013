import { useState } from 'react';
import { api, withQuery } from '../../api/api-client.ts';
import { errorMessage } from '../../api/api-error.ts';
import type { InboundEvent, Page } from '../../api/api-types.ts';
import { useApiData } from '../../api/use-api-data.ts';
import { useSession } from '../../auth/session-context.tsx';
import { formatDate } from '../../components/format-date.ts';
import { LoadState } from '../../components/load-state.tsx';
import { Pager } from '../../components/pager.tsx';
import { useListQuery } from '../../components/use-list-query.ts';

/** Dead letters: inbound events whose every retry failed; each can be queued again. */
export function DeadLettersPage() {
  const { can } = useSession();
  const list = useListQuery('-receivedAt');
  const state = useApiData<Page<InboundEvent>>(withQuery('/api/inbound-events', { status: 'failed', sort: list.sort, limit: list.limit, offset: list.offset }));
  const [retrying, setRetrying] = useState<string>();
  const [error, setError] = useState<string>();
  const retry = async (event: InboundEvent) => {
    setRetrying(event.id);
    setError(undefined);
    try {
      await api.post(`/api/inbound-events/${event.id}/retry`);
      state.reload();
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setRetrying(undefined);
    }
  };
  return (
    <section>
      <h1>Dead letters</h1>
      {error && <p className="error" role="alert">{error}</p>}
      <LoadState state={state} isEmpty={(page) => page.total === 0} empty="No dead letters: every event was processed or is still queued.">
        {(page) => (
          <>
            <table className="list">
              <thead>
                <tr>
                  <th>Received</th>
                  <th>Event</th>
                  <th>Source</th>
                  <th>Attempts</th>
                  <th>Last error</th>
                  <th />
                </tr>
              </thead>
              <tbody>
                {page.items.map((event) => (
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
                ))}
              </tbody>
            </table>
            <Pager offset={list.offset} limit={list.limit} total={page.total} onChange={(offset) => list.set({ offset })} />
          </>
        )}
      </LoadState>
    </section>
  );
}
