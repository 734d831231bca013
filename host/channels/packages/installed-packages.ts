import type { Knex } from 'knex';
import { CHANNEL_CHANGES, type ChannelChangeNotice } from '../channel-state-store.ts';
import type { ChannelPackageManifest } from './channel-package-manifest.ts';
import type { DependencyBundle } from './fetch-channel-dependencies.ts';

/** How far a package's tarball is vouched for, from the strongest. */
export type PackageTrust = 'verified' | 'unsigned' | 'pinned' | 'unverified';

/** One package of the installed set, as listed (the tarball stays in the database). */
export interface InstalledPackage {
  name: string;
  version: string;
  integrity: string;
  trust: PackageTrust;
  manifest: ChannelPackageManifest;
  installedBy: string;
  installedAt: string;
  /** The version a rollback returns to; null when it replaced none. */
  previousVersion: string | null;
  /** The sha512 of its dependencies bundle; null when it has none to install. */
  dependenciesIntegrity: string | null;
}

/** One line of the audit list: who did what to which package, and how it ended. */
export interface PackageAuditEntry {
  at: string;
  actor: string;
  action: 'install' | 'upgrade' | 'rollback' | 'remove';
  name: string;
  version: string | null;
  integrity: string | null;
  /** `ok`, or the code of the error that refused it. */
  outcome: string;
  message: string | null;
}

interface PackageRow {
  name: string;
  version: string;
  integrity: string;
  trust: PackageTrust;
  manifest: ChannelPackageManifest;
  installed_by: string;
  installed_at: Date;
  previous_version: string | null;
  dependencies_integrity: string | null;
}

/** Tarballs kept per package beyond the installed one and the one it replaced. */
const KEPT_VERSIONS = 3;

/**
 * The channel packages the host installs, as desired state in PostgreSQL: every instance
 * converges its package folder to this set (ChannelPackageStore). Each version's tarball is kept
 * by its integrity, so instances never need the registry and a rollback has the bytes at hand.
 * Each change commits with a rescan notice, so the other instances hear of it once it is there
 * to read.
 */
export class InstalledPackages {
  constructor(
    private readonly db: Knex,
    /** This instance's id: it applies its own changes at once and skips its own notices. */
    private readonly instanceId: string,
  ) {}

  async list(): Promise<InstalledPackage[]> {
    const rows: PackageRow[] = await this.#rows().orderBy('p.name');
    return rows.map(toPackage);
  }

  async get(name: string): Promise<InstalledPackage | undefined> {
    const row: PackageRow | undefined = await this.#rows().where('p.name', name).first();
    return row ? toPackage(row) : undefined;
  }

  /** The stored tarball of `name` at `integrity`; undefined when none is kept. */
  async tarball(name: string, integrity: string): Promise<Buffer | undefined> {
    const row: { tarball: Buffer } | undefined = await this.db('channel_package_versions').select('tarball').where({ name, integrity }).first();
    return row?.tarball;
  }

  /** The stored dependencies bundle of `name` at `integrity`; undefined when none is kept. */
  async dependencies(name: string, integrity: string): Promise<Buffer | undefined> {
    const row: { dependencies: Buffer | null } | undefined = await this.db('channel_package_versions').select('dependencies').where({ name, integrity }).first();
    return row?.dependencies ?? undefined;
  }

  /**
   * Installs or replaces `name` in the set, with its audit line, and tells the other instances.
   * A version installed again keeps the dependencies this install fetched (its folder is named
   * after them, so every instance moves to them).
   */
  async put(entry: Omit<InstalledPackage, 'installedAt' | 'previousVersion' | 'dependenciesIntegrity'> & { tarball: Buffer; dependencies: DependencyBundle | undefined }, action: 'install' | 'upgrade'): Promise<void> {
    await this.db.transaction(async (trx) => {
      const dependencies = { dependencies: entry.dependencies?.tarball ?? null, dependencies_integrity: entry.dependencies?.integrity ?? null };
      const version = { name: entry.name, integrity: entry.integrity, version: entry.version, tarball: entry.tarball, trust: entry.trust, manifest: JSON.stringify(entry.manifest), ...dependencies };
      await trx('channel_package_versions').insert(version).onConflict(['name', 'integrity']).merge(['trust', 'stored_at', 'dependencies', 'dependencies_integrity']);
      const current: { integrity: string } | undefined = await trx('channel_packages').select('integrity').where({ name: entry.name }).forUpdate().first();
      const previous = current && current.integrity !== entry.integrity ? current.integrity : null;
      const row = { name: entry.name, integrity: entry.integrity, installed_by: entry.installedBy, installed_at: trx.fn.now(), ...(current ? (previous ? { previous_integrity: previous } : {}) : { previous_integrity: null }) };
      await trx('channel_packages').insert(row).onConflict('name').merge();
      await trx('channel_package_audit').insert({ actor: entry.installedBy, action, name: entry.name, version: entry.version, integrity: entry.integrity, outcome: 'ok' });
      await this.#prune(trx, entry.name);
      await this.#announce(trx);
    });
  }

  /**
   * Returns `name` to the version it replaced (which then becomes the one to return to); undefined
   * when it is not installed or replaced nothing. `accept` judges that version first, and refuses
   * it by throwing: nothing changes then.
   */
  async rollback(name: string, actor: string, accept: (previous: { name: string; version: string; trust: PackageTrust }) => void = () => {}): Promise<InstalledPackage | undefined> {
    const rolledBack = await this.db.transaction(async (trx) => {
      const current: { integrity: string; previous_integrity: string | null } | undefined = await trx('channel_packages').select('integrity', 'previous_integrity').where({ name }).forUpdate().first();
      if (!current?.previous_integrity) return false;
      const previous: { version: string; trust: PackageTrust } = await trx('channel_package_versions').select('version', 'trust').where({ name, integrity: current.previous_integrity }).first();
      accept({ name, ...previous });
      await trx('channel_packages').where({ name }).update({ integrity: current.previous_integrity, previous_integrity: current.integrity, installed_by: actor, installed_at: trx.fn.now() });
      await trx('channel_package_audit').insert({ actor, action: 'rollback', name, version: previous.version, integrity: current.previous_integrity, outcome: 'ok' });
      await this.#announce(trx);
      return true;
    });
    return rolledBack ? this.get(name) : undefined;
  }

  /** Takes `name` out of the set; false when it was not in it. Its kept tarballs go with it. */
  async remove(name: string, actor: string): Promise<boolean> {
    return this.db.transaction(async (trx) => {
      const removed: Array<{ integrity: string }> = await trx('channel_packages').where({ name }).delete().returning(['integrity']);
      if (removed.length === 0) return false;
      const version: { version: string } | undefined = await trx('channel_package_versions').select('version').where({ name, integrity: removed[0]!.integrity }).first();
      await trx('channel_package_versions').where({ name }).delete();
      await trx('channel_package_audit').insert({ actor, action: 'remove', name, version: version?.version ?? null, integrity: removed[0]!.integrity, outcome: 'ok' });
      await this.#announce(trx);
      return true;
    });
  }

  /** A refused attempt, for the audit list. */
  async refused(entry: Omit<PackageAuditEntry, 'at' | 'message'> & { message: string }): Promise<void> {
    await this.db('channel_package_audit').insert(entry);
  }

  async audit(limit = 100): Promise<PackageAuditEntry[]> {
    const rows: Array<Omit<PackageAuditEntry, 'at'> & { at: Date }> = await this.db('channel_package_audit')
      .select('at', 'actor', 'action', 'name', 'version', 'integrity', 'outcome', 'message')
      .orderBy('id', 'desc')
      .limit(limit);
    return rows.map((row) => ({ ...row, at: row.at.toISOString() }));
  }

  #rows(): Knex.QueryBuilder {
    return this.db('channel_packages as p')
      .join('channel_package_versions as v', (join) => join.on('v.name', 'p.name').andOn('v.integrity', 'p.integrity'))
      .leftJoin('channel_package_versions as before', (join) => join.on('before.name', 'p.name').andOn('before.integrity', 'p.previous_integrity'))
      .select('p.name', 'v.version', 'p.integrity', 'v.trust', 'v.manifest', 'p.installed_by', 'p.installed_at', 'before.version as previous_version', 'v.dependencies_integrity');
  }

  /** Keeps the installed tarball, the one it replaced, and the newest few besides. */
  async #prune(trx: Knex.Transaction, name: string): Promise<void> {
    await trx.raw(
      `DELETE FROM channel_package_versions v
        WHERE v.name = ?
          AND NOT EXISTS (SELECT 1 FROM channel_packages p WHERE p.name = v.name AND v.integrity IN (p.integrity, p.previous_integrity))
          AND v.integrity NOT IN (SELECT integrity FROM channel_package_versions WHERE name = ? ORDER BY stored_at DESC LIMIT ?)`,
      [name, name, KEPT_VERSIONS],
    );
  }

  async #announce(trx: Knex.Transaction): Promise<void> {
    const notice: ChannelChangeNotice = { event: 'rescan', from: this.instanceId };
    await trx.raw('SELECT pg_notify(?, ?)', [CHANNEL_CHANGES, JSON.stringify(notice)]);
  }
}

function toPackage(row: PackageRow): InstalledPackage {
  return {
    name: row.name,
    version: row.version,
    integrity: row.integrity,
    trust: row.trust,
    manifest: row.manifest,
    installedBy: row.installed_by,
    installedAt: row.installed_at.toISOString(),
    previousVersion: row.previous_version,
    dependenciesIntegrity: row.dependencies_integrity,
  };
}
