import { SEEDED_ROLE_PERMISSIONS } from '../../../auth/seeded-role-permissions.ts';
import type { Permission } from '../../../auth/permissions.ts';

export type { Permission };

/**
 * Whether a role may do something. The API has no route listing roles, so the panel knows the
 * seeded ones; for any other role it enables the action and lets the API answer 403.
 */
export function roleAllows(role: string, permission: Permission): boolean {
  const permissions = (SEEDED_ROLE_PERMISSIONS as Record<string, readonly Permission[] | undefined>)[role];
  return permissions ? permissions.includes(permission) : true;
}
