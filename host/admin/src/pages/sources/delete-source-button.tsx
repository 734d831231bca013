import { useState } from 'react';
import { useNavigate } from 'react-router';
import { api } from '../../api/api-client.ts';
import { errorMessage } from '../../api/api-error.ts';
import type { Source } from '../../api/api-types.ts';
import { useSession } from '../../auth/session-context.tsx';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';

/** Deletes a source after a confirmation. */
export function DeleteSourceButton({ source }: { source: Source }) {
  const { can } = useSession();
  const navigate = useNavigate();
  const [asking, setAsking] = useState(false);
  const [error, setError] = useState<string>();
  const remove = async () => {
    try {
      await api.delete(`/api/sources/${source.id}`);
      navigate('/sources');
    } catch (failure) {
      setError(errorMessage(failure));
    }
  };
  return (
    <>
      <button type="button" className="danger" disabled={!can('source:delete')} onClick={() => setAsking(true)}>
        Delete
      </button>
      {asking && (
        <ConfirmDialog title={`Delete "${source.name}"?`} confirmLabel="Delete" onConfirm={remove} onCancel={() => setAsking(false)}>
          <p>Its webhook URL stops working at once.</p>
          {error && <p className="error">{error}</p>}
        </ConfirmDialog>
      )}
    </>
  );
}
