import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { Permission } from '../auth/role-permissions.ts';
import { useSession } from '../auth/session-context.tsx';

/**
 * A link to a create page when the role has `permission`, else a disabled button saying the
 * same (with `deniedTitle` as its tooltip, if given).
 *
 * @example
 * <CreateLink to="/sources/new" permission="source:create">New source</CreateLink>
 */
export function CreateLink({ to, permission, deniedTitle, children }: { to: string; permission: Permission; deniedTitle?: string; children: ReactNode }) {
  const { can } = useSession();
  if (can(permission))
    return (
      <Link className="button" to={to}>
        {children}
      </Link>
    );
  return (
    <button type="button" disabled title={deniedTitle}>
      {children}
    </button>
  );
}
