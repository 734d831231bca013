import { useState } from 'react';
import { useNavigate } from 'react-router';
import { api } from '../../api/api-client.ts';
import { errorMessage } from '../../api/api-error.ts';
import type { Workflow } from '../../api/api-types.ts';
import { useSession } from '../../auth/session-context.tsx';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';

/** Deletes a workflow with all its versions, after a confirmation. */
export function DeleteWorkflowButton({ workflow }: { workflow: Workflow }) {
  const { can } = useSession();
  const navigate = useNavigate();
  const [asking, setAsking] = useState(false);
  const [error, setError] = useState<string>();
  const remove = async () => {
    try {
      await api.delete(`/api/workflows/${workflow.id}`);
      navigate('/workflows');
    } catch (failure) {
      setError(errorMessage(failure));
    }
  };
  return (
    <>
      <button type="button" className="danger" disabled={!can('workflow:delete')} onClick={() => setAsking(true)}>
        Delete
      </button>
      {asking && (
        <ConfirmDialog title={`Delete "${workflow.name}"?`} confirmLabel="Delete" onConfirm={remove} onCancel={() => setAsking(false)}>
          <p>
            This deletes its {workflow.currentVersion} version{workflow.currentVersion === 1 ? '' : 's'}. Sources that name it as their
            default workflow no longer run it.
          </p>
          {error && <p className="error">{error}</p>}
        </ConfirmDialog>
      )}
    </>
  );
}
