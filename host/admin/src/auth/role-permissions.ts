import { SEEDED_ROLE_PERMISSIONS } from '../../../auth/seeded-role-permissions.ts';
import type { Permission } from '../../../auth/permissions.ts';

export type { Permission };

/**
 * Whether a role may do something, before `GET /api/auth/me` has answered: the panel knows the
 * seeded roles; for any other role it enables the action until the API says what the role holds.
 */
export function roleAllows(role: string, permission: Permission): boolean {
  const permissions = (SEEDED_ROLE_PERMISSIONS as Record<string, readonly Permission[] | undefined>)[role];
  return permissions ? permissions.includes(permission) : true;
}
