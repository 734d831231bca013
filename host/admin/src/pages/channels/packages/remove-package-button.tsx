import { useState } from 'react';
import { api } from '../../../api/api-client.ts';
import { errorMessage } from '../../../api/api-error.ts';
import type { ChannelPackage } from '../../../api/api-types.ts';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';

/** Removes an installed package, on every instance, after a confirmation. */
export function RemovePackageButton({ installed, disabled, onRemoved }: { installed: ChannelPackage; disabled: boolean; onRemoved: () => void }) {
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const remove = async () => {
    setBusy(true);
    try {
      await api.delete(`/api/channel/packages/${encodeURIComponent(installed.name)}`);
      setAsking(false);
      onRemoved();
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <button type="button" className="danger" aria-label={`Remove ${installed.name}`} disabled={disabled} onClick={() => setAsking(true)}>
        Remove
      </button>
      {asking && (
        <ConfirmDialog title={`Remove ${installed.name}?`} confirmLabel="Remove" busy={busy} onConfirm={() => void remove()} onCancel={() => setAsking(false)}>
          <p>
            Version {installed.version} leaves every instance; its channel stops once the requests in flight finish.
          </p>
          {error && <p className="error" role="alert">{error}</p>}
        </ConfirmDialog>
      )}
    </>
  );
}
