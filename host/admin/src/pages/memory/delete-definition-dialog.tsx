import { useState } from 'react';
import { api, withQuery } from '../../api/api-client.ts';
import { errorMessage } from '../../api/api-error.ts';
import type { MemoryDefinition, Page } from '../../api/api-types.ts';
import { useApiData } from '../../api/use-api-data.ts';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';

/** Asks before deleting a definition, saying how many records go with it. */
export function DeleteDefinitionDialog({ definition, onClose }: { definition: MemoryDefinition; onClose: (deleted: boolean) => void }) {
  const records = useApiData<Page<unknown>>(withQuery('/api/memory-records', { definitionId: definition.id, limit: 1 }));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const confirm = async () => {
    setBusy(true);
    try {
      await api.delete(`/api/memory-definitions/${definition.id}`);
      onClose(true);
    } catch (failure) {
      setError(errorMessage(failure));
      setBusy(false);
    }
  };
  const count = records.data?.total;
  return (
    <ConfirmDialog title={`Delete "${definition.name}"?`} confirmLabel="Delete" busy={busy || (count === undefined && !records.error)} onConfirm={confirm} onCancel={() => onClose(false)}>
      <p className="record-count">
        {count === undefined
          ? records.error
            ? `Its records could not be counted: ${errorMessage(records.error)}`
            : 'Counting its records…'
          : `This deletes the definition and its ${count} memory record${count === 1 ? '' : 's'}.`}
      </p>
      {error && <p className="error" role="alert">{error}</p>}
    </ConfirmDialog>
  );
}
