/**
 * The folder the host keeps its installed channel packages in (BOT_CHANNEL_STORE_DIR), outside
 * the app's `node_modules` (which the next `npm ci` of the host empties) and outside the data
 * directory (which only the host may enter, while each runner reads its package as a user of
 * its own). Laid out as Node resolves it:
 *
 *   <store>/<name>/<version>-<digest>/node_modules/<name>/…   the package, as its tarball holds it
 *   <store>/<name>/<version>-<digest>/node_modules/zod -> <host>/node_modules/zod   each peer the host provides
 *   <store>/<name>/<version>-<digest>/node_modules/<dependency>  its dependencies, unpacked from their bundle
 *   <store>/<name>/current -> <version>-<digest>                what discovery finds
 *
 * A version folder is built beside the others under a temporary name and renamed into place
 * whole; `current` is switched by renaming a new link over it. Either way a reader sees the old
 * state or the new one, never half of one.
 */
import { createHash, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, lstat, mkdir, readdir, readlink, rename, rm, stat, symlink } from 'node:fs/promises';
import path from 'node:path';
import semver from 'semver';
import { AppError } from '../../errors/app-error.ts';
import { DEPENDENCY_BUNDLE_LIMITS } from './fetch-channel-dependencies.ts';
import { checkChannelPackageName } from './parse-channel-package-spec.ts';
import type { TarballLimits } from './read-channel-tarball.ts';

export interface ChannelPackageStoreOptions {
  /** BOT_CHANNEL_STORE_DIR. */
  dir: string;
  /** Where the host's own packages are installed (its `node_modules`): the peers link there. */
  hostRoot: string;
  /** Names of the peers the host provides (`@bot-ai/api`, `zod`…): linked into each package's folder. */
  providedPeers: string[];
  /** Unpacks a tarball into `destination` (which must not exist), running none of its code. */
  extract(tarball: Buffer, destination: string, limits?: Partial<TarballLimits>): Promise<void>;
}

/** A version of a package, as the store holds it. */
export interface StoredVersion {
  name: string;
  version: string;
  integrity: string;
  /** The sha512 of its dependencies as installed (a bundle of them); null or absent when it has none to install. */
  dependenciesIntegrity?: string | null;
}

const CURRENT = 'current';
/** What a name folder of the store looks like (the names checkChannelPackageName accepts). */
const CHANNEL_FOLDER = /^bot-channel-[a-z0-9][a-z0-9._-]*$/;
/** Version folders kept besides the current one: the one it replaced, whose runner may still be draining. */
const KEPT_PREVIOUS = 1;

export class ChannelPackageStore {
  readonly #options: ChannelPackageStoreOptions;

  constructor(options: ChannelPackageStoreOptions) {
    this.#options = options;
  }

  get dir(): string {
    return this.#options.dir;
  }

  /** The package's own folder for `stored` (whether or not it is there yet). */
  packageDir(stored: StoredVersion): string {
    return path.join(this.#versionDir(stored), 'node_modules', stored.name);
  }

  /** Whether `stored` is unpacked in the store. */
  has(stored: StoredVersion): boolean {
    return existsSync(this.packageDir(stored));
  }

  /**
   * Unpacks `tarball` as `stored` beside the versions already there (nothing switches to it), its
   * `dependencies` bundle first, as the version folder's `node_modules`; the package's folder.
   */
  async stage(stored: StoredVersion, tarball: Buffer, dependencies?: Buffer): Promise<string> {
    if (this.has(stored)) return this.packageDir(stored);
    await this.#ensureReadableRoot();
    const nameDir = this.#nameDir(stored.name);
    await mkdir(nameDir, { recursive: true, mode: 0o755 });
    await this.#refuseLinkAt(nameDir);
    const staging = path.join(nameDir, `.staging-${randomUUID()}`);
    try {
      await mkdir(staging, { mode: 0o755 });
      if (dependencies) await this.#options.extract(dependencies, path.join(staging, 'node_modules'), DEPENDENCY_BUNDLE_LIMITS);
      else await mkdir(path.join(staging, 'node_modules'), { mode: 0o755 });
      await this.#options.extract(tarball, path.join(staging, 'node_modules', stored.name));
      await this.#linkPeers(path.join(staging, 'node_modules'));
      await rename(staging, this.#versionDir(stored)).catch((error: NodeJS.ErrnoException) => {
        // Another instance sharing the folder staged the same version first: theirs is as good.
        if (!this.has(stored)) throw error;
      });
    } finally {
      await rm(staging, { recursive: true, force: true });
    }
    return this.packageDir(stored);
  }

  /** Removes a staged version that did not pass its checks, unless it is the current one. */
  async discard(stored: StoredVersion): Promise<void> {
    if ((await this.currentFolder(stored.name)) === this.folderName(stored)) return;
    await rm(this.#versionDir(stored), { recursive: true, force: true });
  }

  /** Makes `stored` the version discovery finds for its name. */
  async makeCurrent(stored: StoredVersion): Promise<void> {
    const nameDir = this.#nameDir(stored.name);
    await this.#refuseLinkAt(nameDir);
    const next = path.join(nameDir, `.${CURRENT}-${randomUUID()}`);
    await symlink(path.basename(this.#versionDir(stored)), next);
    await rename(next, path.join(nameDir, CURRENT));
    await this.#prune(nameDir, path.basename(this.#versionDir(stored)));
  }

  /** Takes `name` out of what discovery finds; its folders go at the next removal or install. */
  async removeCurrent(name: string): Promise<void> {
    await rm(path.join(this.#nameDir(name), CURRENT), { force: true });
  }

  /** The names the store currently offers to discovery. */
  async currentNames(): Promise<string[]> {
    const names = await readdir(this.#options.dir).catch(() => [] as string[]);
    return names.filter((name) => CHANNEL_FOLDER.test(name) && existsSync(path.join(this.#options.dir, name, CURRENT)));
  }

  /** The version `name`'s `current` points at, as its folder name (`<version>-<digest>`). */
  async currentFolder(name: string): Promise<string | undefined> {
    return readlink(path.join(this.#nameDir(name), CURRENT)).catch(() => undefined);
  }

  /**
   * `<version>-<digest>`: two tarballs of one version (an upload, a republished registry) never
   * share a folder, nor one version with two different sets of dependencies.
   */
  folderName(stored: StoredVersion): string {
    if (semver.valid(stored.version) !== stored.version) {
      throw new AppError('BOT_ERR_CHANNEL_PACKAGE_MANIFEST_INVALID', `${stored.name}: "${stored.version.slice(0, 64)}" is not a version`);
    }
    const digest = createHash('sha256')
      .update(stored.integrity)
      .update(stored.dependenciesIntegrity ? `\n${stored.dependenciesIntegrity}` : '')
      .digest('hex')
      .slice(0, 12);
    return `${stored.version}-${digest}`;
  }

  /**
   * The store readable by every user and writable by the host alone (0755): as root, each runner
   * reads its package as a uid of its own (packages are public code; nothing secret is kept
   * here), and a user who could write here could swap a folder for a link the host would then
   * unpack into or prune.
   */
  async #ensureReadableRoot(): Promise<void> {
    await mkdir(this.#options.dir, { recursive: true, mode: 0o755 });
    const folder = await lstat(this.#options.dir);
    if (!folder.isDirectory()) throw new AppError('BOT_ERR_CHANNEL_PACKAGE_APPLY_FAILED', `BOT_CHANNEL_STORE_DIR (${this.#options.dir}) is not a folder`);
    if (process.getuid && folder.uid !== process.getuid()) {
      throw new AppError('BOT_ERR_CHANNEL_PACKAGE_APPLY_FAILED', `BOT_CHANNEL_STORE_DIR (${this.#options.dir}) belongs to another user than the host's`);
    }
    if ((folder.mode & 0o777) !== 0o755) await chmod(this.#options.dir, 0o755);
    if (process.getuid?.() === 0) await this.#ensureReachableByRunners();
  }

  /** As root, runners read as uids of their own: every folder above the store must let others pass. */
  async #ensureReachableByRunners(): Promise<void> {
    for (let dir = path.dirname(this.#options.dir); ; dir = path.dirname(dir)) {
      if (((await stat(dir)).mode & 0o001) === 0) {
        throw new AppError('BOT_ERR_CHANNEL_PACKAGE_APPLY_FAILED', `Channel runners cannot reach BOT_CHANNEL_STORE_DIR: ${dir} does not let other users pass (chmod o+x, or choose another folder)`);
      }
      if (dir === path.dirname(dir)) return;
    }
  }

  /** A name folder that became a link (someone else's doing) would lead the host's writes elsewhere. */
  async #refuseLinkAt(folder: string): Promise<void> {
    if ((await lstat(folder)).isSymbolicLink()) throw new AppError('BOT_ERR_CHANNEL_PACKAGE_APPLY_FAILED', `${folder} is a link, not the host's folder`);
  }

  #versionDir(stored: StoredVersion): string {
    return path.join(this.#nameDir(stored.name), this.folderName(stored));
  }

  /**
   * `<store>/<name>`, for a name that is a channel package's and nothing else: names and versions
   * come from the database too, and a path character there must not make the host unpack or
   * prune outside its folder.
   */
  #nameDir(name: string): string {
    checkChannelPackageName(name);
    return path.join(this.#options.dir, name);
  }

  /** Links each peer the host provides, so the package resolves the host's copy (one SDK, one zod). */
  async #linkPeers(modules: string): Promise<void> {
    for (const peer of this.#options.providedPeers) {
      const target = path.join(this.#options.hostRoot, 'node_modules', peer);
      if (!existsSync(target)) continue;
      await mkdir(path.dirname(path.join(modules, peer)), { recursive: true, mode: 0o755 });
      await symlink(target, path.join(modules, peer));
    }
  }

  /** Removes version folders but the current one and the one it replaced. */
  async #prune(nameDir: string, current: string): Promise<void> {
    const entries = (await readdir(nameDir)).filter((entry) => !entry.startsWith('.') && entry !== CURRENT && entry !== current);
    const byAge = await Promise.all(entries.map(async (entry) => ({ entry, at: (await stat(path.join(nameDir, entry))).mtimeMs })));
    byAge.sort((a, b) => b.at - a.at);
    for (const { entry } of byAge.slice(KEPT_PREVIOUS)) await rm(path.join(nameDir, entry), { recursive: true, force: true });
  }
}
