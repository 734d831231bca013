import { useEffect, useState } from 'react';
import { api, withQuery } from '../../../api/api-client.ts';
import { errorMessage } from '../../../api/api-error.ts';
import type { ListedMemoryRecord, Page } from '../../../api/api-types.ts';
import { useApiData } from '../../../api/use-api-data.ts';
import { useSession } from '../../../auth/session-context.tsx';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';

/**
 * The test subscriber's memory (owner `test:<ownerId>`, or the caller's own), read again after
 * every turn (`turnsRun` counts them), with "Reset test memory", which deletes every record of
 * that test owner after asking. Test memory is kept apart from subscribers' by the server.
 */
export function TestMemoryPanel({ ownerId, turnsRun }: { ownerId: string; turnsRun: number }) {
  const { can } = useSession();
  const path = withQuery('/api/test-memory', { ownerId, limit: 200 });
  const records = useApiData<Page<ListedMemoryRecord>>(can('run:create') ? path : null);
  const { reload } = records;
  useEffect(() => {
    if (turnsRun > 0) reload();
  }, [turnsRun, reload]);
  const items = records.data?.items ?? [];
  return (
    <section className="test-memory" aria-label="Test memory">
      <h3>Test memory</h3>
      {records.error !== undefined && <p className="error">{errorMessage(records.error)}</p>}
      {items.length === 0 ? (
        <p className="empty">{records.loading ? 'Loading…' : 'Nothing remembered yet.'}</p>
      ) : (
        <ul className="plain test-memory-records" aria-label="Test memory records">
          {items.map((record) => (
            <li key={record.id} data-slug={record.slug}>
              <code>{record.slug}</code>
              {!record.valid && <small className="error"> (no longer matches its schema)</small>}
              <pre className="json">{JSON.stringify(record.value, null, 2)}</pre>
            </li>
          ))}
        </ul>
      )}
      <ResetTestMemory ownerId={ownerId} disabled={!can('run:create') || items.length === 0} onReset={reload} />
    </section>
  );
}

function ResetTestMemory({ ownerId, disabled, onReset }: { ownerId: string; disabled: boolean; onReset: () => void }) {
  const [asking, setAsking] = useState(false);
  const [state, setState] = useState<{ busy: boolean; error?: string }>({ busy: false });
  const reset = async () => {
    setState({ busy: true });
    try {
      await api.delete(withQuery('/api/test-memory', { ownerId }));
      setAsking(false);
      setState({ busy: false });
      onReset();
    } catch (error) {
      setState({ busy: false, error: errorMessage(error) });
    }
  };
  return (
    <>
      <button type="button" className="danger" disabled={disabled} onClick={() => setAsking(true)}>
        Reset test memory
      </button>
      {asking && (
        <ConfirmDialog title="Reset test memory?" confirmLabel="Reset" busy={state.busy} onConfirm={reset} onCancel={() => setAsking(false)}>
          <p>
            Deletes everything test runs remembered for {ownerId ? <code>test:{ownerId}</code> : 'your test subscriber'}: the next turn starts as a
            new subscriber's would. Real subscribers' memory is not touched.
          </p>
          {state.error && <p className="error">{state.error}</p>}
        </ConfirmDialog>
      )}
    </>
  );
}
