/** The resources the admin API protects; a permission is `<resource>:<action>`. */
export const RESOURCES = [
  'memory_definition',
  'memory_record',
  'source',
  'channel',
  'workflow',
  'run',
  'subscriber',
  'inbox',
] as const;
export const ACTIONS = ['read', 'create', 'update', 'delete'] as const;

/**
 * Permissions beyond a resource's four actions. `channel:install` puts third-party code on the
 * host (a channel package, run in its sandbox): admin-only unless an operator grants it.
 */
export const SPECIAL_PERMISSIONS = ['channel:install'] as const;

export type Resource = (typeof RESOURCES)[number];
export type Action = (typeof ACTIONS)[number];
export type Permission = `${Resource}:${Action}` | (typeof SPECIAL_PERMISSIONS)[number];

/** Every permission, resource by resource, then the special ones. */
export const PERMISSIONS: readonly Permission[] = [...RESOURCES.flatMap((resource) => ACTIONS.map((action): Permission => `${resource}:${action}`)), ...SPECIAL_PERMISSIONS];

/** What a route that any valid token may call declares instead of a permission (e.g. "who am I"). */
export const SIGNED_IN = 'signed_in' as const;

/** What a route requires: a permission, or only a valid token. */
export type RouteAccess = Permission | typeof SIGNED_IN;

/** The roles the first migration seeds; tokens may name other roles stored in the database. */
export const SEEDED_ROLES = ['admin', 'editor', 'viewer'] as const;
