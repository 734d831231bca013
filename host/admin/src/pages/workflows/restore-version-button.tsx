import { useState } from 'react';
import { useNavigate } from 'react-router';
import { api } from '../../api/api-client.ts';
import { errorMessage } from '../../api/api-error.ts';
import type { Workflow } from '../../api/api-types.ts';
import { useSession } from '../../auth/session-context.tsx';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';

/**
 * "Restore as new version": after asking, saves an old version's YAML as the next version (a
 * save like any other, validated against today's actions and memory), then opens it. Nothing in
 * the history is rewritten.
 */
export function RestoreVersionButton({ workflow, version }: { workflow: Workflow; version: number }) {
  const { can } = useSession();
  const navigate = useNavigate();
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const restore = async () => {
    setBusy(true);
    try {
      const old = await api.get<Workflow>(`/api/workflows/${workflow.id}?version=${version}`);
      const saved = await api.put<Workflow>(`/api/workflows/${workflow.id}`, { yaml: old.yaml });
      setAsking(false);
      navigate(`/workflows/${saved.id}?version=${saved.version}`);
    } catch (failure) {
      setError(errorMessage(failure));
      setBusy(false);
    }
  };
  return (
    <>
      <button type="button" className="link" disabled={!can('workflow:update')} aria-label={`Restore v${version} as a new version`} onClick={() => setAsking(true)}>
        restore as new version
      </button>
      {asking && (
        <ConfirmDialog title={`Restore v${version}?`} confirmLabel={`Restore as v${workflow.currentVersion + 1}`} busy={busy} onConfirm={() => void restore()} onCancel={() => setAsking(false)}>
          <p>
            Version {version}'s YAML is saved as version {workflow.currentVersion + 1}, the new current version. Every version stays in the history.
          </p>
          {error && <p className="error">{error}</p>}
        </ConfirmDialog>
      )}
    </>
  );
}
