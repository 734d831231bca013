import type { Knex } from 'knex';
import { CHANNEL_CHANGES, type ChannelChangeNotice } from '../channel-state-store.ts';
import type { ChannelPackageManifest } from './channel-package-manifest.ts';

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
}

/** One line of the audit list: who did what to which package, and how it ended. */
export interface PackageAuditEntry {
  at: string;
  actor: string;
  action: 'install' | 'upgrade' | 'remove';
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
}

const LISTED = ['name', 'version', 'integrity', 'trust', 'manifest', 'installed_by', 'installed_at'] as const;

/**
 * The channel packages the host installs, as desired state in PostgreSQL: every instance
 * converges its package folder to this set (ChannelPackageStore). Each change commits with a
 * rescan notice, so the other instances hear of it once it is there to read.
 */
export class InstalledPackages {
  constructor(
    private readonly db: Knex,
    /** This instance's id: it applies its own changes at once and skips its own notices. */
    private readonly instanceId: string,
  ) {}

  async list(): Promise<InstalledPackage[]> {
    const rows: PackageRow[] = await this.db('channel_packages').select(...LISTED).orderBy('name');
    return rows.map(toPackage);
  }

  async get(name: string): Promise<InstalledPackage | undefined> {
    const row: PackageRow | undefined = await this.db('channel_packages').select(...LISTED).where({ name }).first();
    return row ? toPackage(row) : undefined;
  }

  /** The stored tarball of `name` at `integrity`; undefined when the set has moved on. */
  async tarball(name: string, integrity: string): Promise<Buffer | undefined> {
    const row: { tarball: Buffer } | undefined = await this.db('channel_packages').select('tarball').where({ name, integrity }).first();
    return row?.tarball;
  }

  /** Installs or replaces `name` in the set, with its audit line, and tells the other instances. */
  async put(entry: Omit<InstalledPackage, 'installedAt'> & { tarball: Buffer }, action: 'install' | 'upgrade'): Promise<void> {
    await this.db.transaction(async (trx) => {
      const row = { name: entry.name, version: entry.version, integrity: entry.integrity, trust: entry.trust, manifest: JSON.stringify(entry.manifest), tarball: entry.tarball, installed_by: entry.installedBy, installed_at: trx.fn.now() };
      await trx('channel_packages').insert(row).onConflict('name').merge();
      await trx('channel_package_audit').insert({ actor: entry.installedBy, action, name: entry.name, version: entry.version, integrity: entry.integrity, outcome: 'ok' });
      await this.#announce(trx);
    });
  }

  /** Takes `name` out of the set; false when it was not in it. */
  async remove(name: string, actor: string): Promise<boolean> {
    return this.db.transaction(async (trx) => {
      const removed: Array<{ version: string; integrity: string }> = await trx('channel_packages').where({ name }).delete().returning(['version', 'integrity']);
      if (removed.length === 0) return false;
      await trx('channel_package_audit').insert({ actor, action: 'remove', name, version: removed[0]!.version, integrity: removed[0]!.integrity, outcome: 'ok' });
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
  };
}
