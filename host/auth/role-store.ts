import type { Knex } from 'knex';

const CACHE_MS = 5_000;

/**
 * Permissions per role, read from Postgres. Cached for a few seconds because every protected
 * request asks; a role change reaches all hosts within that time.
 */
export class RoleStore {
  #cache: { loadedAt: number; roles: Map<string, ReadonlySet<string>> } | undefined;
  #loading: Promise<Map<string, ReadonlySet<string>>> | undefined;

  constructor(
    private readonly db: Knex,
    private readonly now: () => number = Date.now,
  ) {}

  /** The role's permissions; an unknown role has none. */
  async permissionsOf(role: string): Promise<ReadonlySet<string>> {
    const roles = await this.#roles();
    return roles.get(role) ?? new Set();
  }

  async #roles(): Promise<Map<string, ReadonlySet<string>>> {
    if (this.#cache && this.now() - this.#cache.loadedAt < CACHE_MS) return this.#cache.roles;
    this.#loading ??= this.#load().finally(() => (this.#loading = undefined));
    return this.#loading;
  }

  async #load(): Promise<Map<string, ReadonlySet<string>>> {
    const rows = await this.db('role_permissions').select<{ role: string; permission: string }[]>('role', 'permission');
    const roles = new Map<string, Set<string>>();
    for (const { role, permission } of rows) {
      if (!roles.has(role)) roles.set(role, new Set());
      roles.get(role)!.add(permission);
    }
    this.#cache = { loadedAt: this.now(), roles };
    return roles;
  }
}
