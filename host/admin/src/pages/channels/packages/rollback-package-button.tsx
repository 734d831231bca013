import { useState } from 'react';
import { api } from '../../../api/api-client.ts';
import { errorMessage } from '../../../api/api-error.ts';
import type { ChannelPackage } from '../../../api/api-types.ts';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';

/** Returns a package to the version its last install replaced, on every instance, after a confirmation. */
export function RollbackPackageButton({ installed, disabled, onRolledBack }: { installed: ChannelPackage; disabled: boolean; onRolledBack: () => void }) {
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const rollback = async () => {
    setBusy(true);
    try {
      await api.post(`/api/channel/packages/${encodeURIComponent(installed.name)}/rollback`);
      setAsking(false);
      onRolledBack();
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <button type="button" aria-label={`Roll back ${installed.name} to ${installed.previousVersion}`} disabled={disabled} onClick={() => setAsking(true)}>
        Roll back to {installed.previousVersion}
      </button>
      {asking && (
        <ConfirmDialog title={`Roll ${installed.name} back to ${installed.previousVersion}?`} confirmLabel="Roll back" busy={busy} onConfirm={() => void rollback()} onCancel={() => setAsking(false)}>
          <p>
            Every instance returns to version {installed.previousVersion} from the copy the host kept; {installed.version} drains first.
          </p>
          {error && <p className="error" role="alert">{error}</p>}
        </ConfirmDialog>
      )}
    </>
  );
}
