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

export type Resource = (typeof RESOURCES)[number];
export type Action = (typeof ACTIONS)[number];
export type Permission = `${Resource}:${Action}`;

/** The roles the first migration seeds; tokens may name other roles stored in the database. */
export const SEEDED_ROLES = ['admin', 'editor', 'viewer'] as const;
