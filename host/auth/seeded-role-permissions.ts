import { ACTIONS, RESOURCES, SPECIAL_PERMISSIONS, type Permission } from './permissions.ts';

const ALL: Permission[] = RESOURCES.flatMap((resource) => ACTIONS.map((action) => `${resource}:${action}` as const));

/**
 * What the seeded roles may do, as the migrations store it (admin: all, `channel:install`
 * included; editor: all but delete; viewer: read). The admin panel reads it to disable what a token's role cannot do; the
 * API stays the judge (403) for roles stored later.
 *
 * @example SEEDED_ROLE_PERMISSIONS.viewer.includes('memory_definition:create'); // false
 */
export const SEEDED_ROLE_PERMISSIONS: Readonly<Record<'admin' | 'editor' | 'viewer', readonly Permission[]>> = {
  admin: [...ALL, ...SPECIAL_PERMISSIONS],
  editor: ALL.filter((permission) => !permission.endsWith(':delete')),
  viewer: ALL.filter((permission) => permission.endsWith(':read')),
};
