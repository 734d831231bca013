import { createHash } from 'node:crypto';
import { AppError } from '../../errors/app-error.ts';
import type { ChannelPackageStore } from './channel-package-store.ts';
import { readChannelPackageManifest } from './read-channel-package-manifest.ts';
import type { InstalledPackage, InstalledPackages } from './installed-packages.ts';

/** A package of the set this instance could not apply; it keeps serving what it had. */
export interface ConvergeFailure {
  name: string;
  version: string;
  code: string;
  message: string;
}

/**
 * Makes this instance's package folder hold the installed set: each package unpacked from the
 * tarball kept in the database, with the bundle of its dependencies kept beside it (no registry
 * needed, so every instance gets the same bytes), and
 * made current; a package gone from the set is no longer offered to discovery. A package that
 * cannot be applied (a full disk, a tarball that no longer matches its integrity) is reported and
 * left as it was: its current version, if any, keeps serving.
 * @example const failures = await convergeChannelPackages(installed, store); // then rescan
 */
export async function convergeChannelPackages(installed: Pick<InstalledPackages, 'list' | 'tarball' | 'dependencies'>, store: ChannelPackageStore): Promise<ConvergeFailure[]> {
  const wanted = await installed.list();
  const failures: ConvergeFailure[] = [];
  for (const entry of wanted) {
    try {
      await apply(entry, installed, store);
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      failures.push({ name: entry.name, version: entry.version, code: typeof code === 'string' ? code : 'BOT_ERR_CHANNEL_PACKAGE_APPLY_FAILED', message: (error as Error).message });
    }
  }
  const names = new Set(wanted.map((entry) => entry.name));
  for (const name of await store.currentNames()) if (!names.has(name)) await store.removeCurrent(name);
  return failures;
}

async function apply(entry: InstalledPackage, installed: Pick<InstalledPackages, 'tarball' | 'dependencies'>, store: ChannelPackageStore): Promise<void> {
  if (!store.has(entry)) {
    const tarball = await installed.tarball(entry.name, entry.integrity);
    // Replaced since the list was read: the next notice brings the new one.
    if (!tarball) return;
    if (sha512(tarball) !== entry.integrity) {
      throw new AppError('BOT_ERR_CHANNEL_PACKAGE_INTEGRITY_MISMATCH', `The stored tarball of ${entry.name}@${entry.version} does not match its integrity`);
    }
    // The row's name and version name folders: they must be the tarball's own.
    const manifest = await readChannelPackageManifest(tarball);
    if (manifest.name !== entry.name || manifest.version !== entry.version) {
      throw new AppError('BOT_ERR_CHANNEL_PACKAGE_MANIFEST_INVALID', `The stored tarball of ${entry.name}@${entry.version} is ${manifest.name}@${manifest.version}`);
    }
    await store.stage(entry, tarball, await storedDependencies(entry, installed));
  }
  if ((await store.currentFolder(entry.name)) !== store.folderName(entry)) await store.makeCurrent(entry);
}

/** The dependencies bundle the installing instance kept, checked against its integrity; undefined when the package has none. */
async function storedDependencies(entry: InstalledPackage, installed: Pick<InstalledPackages, 'dependencies'>): Promise<Buffer | undefined> {
  if (!entry.dependenciesIntegrity) return undefined;
  const bundle = await installed.dependencies(entry.name, entry.integrity);
  if (!bundle || sha512(bundle) !== entry.dependenciesIntegrity) {
    throw new AppError('BOT_ERR_CHANNEL_PACKAGE_INTEGRITY_MISMATCH', `The stored dependencies of ${entry.name}@${entry.version} do not match their integrity`);
  }
  return bundle;
}

function sha512(bytes: Buffer): string {
  return `sha512-${createHash('sha512').update(bytes).digest('base64')}`;
}
