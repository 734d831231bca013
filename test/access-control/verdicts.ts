import type { Knex } from 'knex';
import type { TestResponse } from '../support/test-app.ts';
import { SIGNED_IN } from '../../host/auth/permissions.ts';
import type { Credential } from './credentials.ts';

/**
 * What an answer means for access control. Anything but these three is reported with its
 * status and code, so a failing matrix shows exactly what a route did.
 */
export type Verdict = 'unauthenticated' | 'forbidden' | 'let through' | `${number} ${string}`;

/** Role → permissions, as the database holds them (the seeded rows of the roles migration). */
export type RoleTable = ReadonlyMap<string, ReadonlySet<string>>;

export async function loadRoleTable(db: Knex): Promise<RoleTable> {
  const rows = await db('role_permissions').select<{ role: string; permission: string }[]>('role', 'permission');
  const table = new Map<string, Set<string>>();
  for (const { role, permission } of rows) table.set(role, (table.get(role) ?? new Set()).add(permission));
  return table;
}

/** What the permission table says a credential gets on a route that requires `permission`. */
export function expectedVerdict(permission: string, credential: Credential, roles: RoleTable): Verdict {
  if (credential.role === undefined) return 'unauthenticated';
  if (permission === SIGNED_IN) return 'let through';
  return roles.get(credential.role)?.has(permission) ? 'let through' : 'forbidden';
}

const AUTH_FAILURES = new Set(['BOT_ERR_AUTH_TOKEN_MISSING', 'BOT_ERR_AUTH_TOKEN_INVALID']);

/**
 * Reads an answer of a route that requires `permission`. 401 and 403 count only with the auth
 * codes (and a 403 must name the route's own permission); a 5xx is never a pass: it would hide
 * whether the check ran. Any other status (200, 404 for a random id, 422 for an empty body…)
 * means the request got past access control.
 */
export function verdictOf(response: TestResponse, permission: string): Verdict {
  const code: string = response.body?.error?.code ?? '-';
  if (response.status === 401 && AUTH_FAILURES.has(code)) return 'unauthenticated';
  if (response.status === 403 && code === 'BOT_ERR_AUTH_FORBIDDEN' && response.body.error.details?.permission === permission) {
    return 'forbidden';
  }
  if (response.status === 401 || response.status === 403 || response.status >= 500) return `${response.status} ${code}`;
  return 'let through';
}
