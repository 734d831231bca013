import { useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { api } from '../api/api-client.ts';
import { errorMessage } from '../api/api-error.ts';
import type { Permission } from '../auth/role-permissions.ts';
import { useSession } from '../auth/session-context.tsx';
import { ConfirmDialog } from './confirm-dialog.tsx';

/**
 * A Delete button, enabled by `permission`, that asks `title` (explained by `children`), then
 * deletes `path` and goes to `after` (calling `onDeleted` first); a failure is shown in the dialog.
 */
export function DeleteButton({
  path,
  permission,
  after,
  onDeleted,
  title,
  children,
}: {
  path: string;
  permission: Permission;
  after: string;
  onDeleted?: () => void;
  title: string;
  children: ReactNode;
}) {
  const { can } = useSession();
  const navigate = useNavigate();
  const [asking, setAsking] = useState(false);
  const [error, setError] = useState<string>();
  const remove = async () => {
    try {
      await api.delete(path);
      onDeleted?.();
      navigate(after);
    } catch (failure) {
      setError(errorMessage(failure));
    }
  };
  return (
    <>
      <button type="button" className="danger" disabled={!can(permission)} onClick={() => setAsking(true)}>
        Delete
      </button>
      {asking && (
        <ConfirmDialog title={title} confirmLabel="Delete" onConfirm={remove} onCancel={() => setAsking(false)}>
          {children}
          {error && <p className="error">{error}</p>}
        </ConfirmDialog>
      )}
    </>
  );
}
