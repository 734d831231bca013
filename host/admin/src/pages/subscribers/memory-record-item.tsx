import { useState } from 'react';
import type { ListedMemoryRecord } from '../../api/api-types.ts';
import { api } from '../../api/api-client.ts';
import { errorMessage } from '../../api/api-error.ts';
import { useSession } from '../../auth/session-context.tsx';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { formatDate } from '../../components/format-date.ts';
import { MemoryValueEditor } from './memory-value-editor.tsx';

/** One memory record: where it applies, its value, and Edit / Erase as the role allows. */
export function MemoryRecordItem({ record, onChanged }: { record: ListedMemoryRecord; onChanged: () => void }) {
  const { can } = useSession();
  const [editing, setEditing] = useState(false);
  const [erasing, setErasing] = useState(false);
  const [error, setError] = useState<string>();
  const erase = async () => {
    try {
      await api.delete(`/api/memory-records/${record.id}`);
      setErasing(false);
      onChanged();
    } catch (failure) {
      setError(errorMessage(failure));
    }
  };
  return (
    <li className="memory-record" data-record={record.id}>
      <p>
        <small>
          {scopeOf(record)} · updated {formatDate(record.updatedAt)}
          {record.expiresAt && <> · expires {formatDate(record.expiresAt)}</>}
        </small>
      </p>
      {!record.valid && <p className="warning">No longer matches its definition's schema, so runs skip it: {record.errors?.map((e) => `${e.path} ${e.message}`).join('; ')}</p>}
      {editing ? (
        <MemoryValueEditor record={record} onSaved={() => (setEditing(false), onChanged())} onCancel={() => setEditing(false)} />
      ) : (
        <>
          <pre className="json">{JSON.stringify(record.value, null, 2)}</pre>
          <p className="actions">
            <button type="button" disabled={!can('memory_record:update')} onClick={() => setEditing(true)}>
              Edit
            </button>
            <button type="button" className="danger" disabled={!can('memory_record:delete')} onClick={() => setErasing(true)}>
              Erase
            </button>
          </p>
        </>
      )}
      {erasing && (
        <ConfirmDialog title={`Erase this ${record.slug} record?`} confirmLabel="Erase" onConfirm={erase} onCancel={() => setErasing(false)}>
          <p>Workflows will no longer remember it.</p>
          {error && <p className="error">{error}</p>}
        </ConfirmDialog>
      )}
    </li>
  );
}

function scopeOf(record: ListedMemoryRecord): string {
  if (record.runId) return `run ${record.runId.slice(0, 8)}`;
  if (record.threadId) return `conversation ${record.threadId.slice(0, 8)}`;
  if (record.workflowId) return `workflow ${record.workflowId.slice(0, 8)}`;
  return 'everywhere (global)';
}
