/**
 * Installs, upgrades and removes the channel packages the host runs, for the admin API, the panel
 * and the CLI alike. No package code runs on the host on the way: the tarball is fetched and
 * checked (fetch-channel-package.ts), its dependencies fetched from the same registry and
 * checked alike (fetch-channel-dependencies.ts), all unpacked by the host itself with nothing
 * executed (extract-channel-package.ts), and checked as discovery checks a package before any of it
 * runs (manifest, peers, links). Only then does it join the installed set in PostgreSQL, which
 * every instance converges to, and the registry's rescan starts it in its sandboxed runner,
 * moving traffic from an older version through the usual drain.
 */
import { AppError, isAppError } from '../../errors/app-error.ts';
import type { DiagnosticEntry } from '../channel-registry.ts';
import type { ChannelFile } from '../discovery/scan-channel-files.ts';
import type { RescanReport } from '../rescan-report.ts';
import { checkPluginLinks } from '../discovery/check-plugin-links.ts';
import { checkPluginManifest } from '../discovery/check-plugin-manifest.ts';
import { PluginRejection } from '../discovery/plugin-rejection.ts';
import { readPluginManifest } from '../discovery/read-plugin-manifest.ts';
import { pluginLinkPolicy } from '../runner/plugin-read-paths.ts';
import type { DeclaredPackage } from './channels-file.ts';
import { findChannelFile } from './find-channel-file.ts';
import { checkInstallRules, checkStandingRules, OPEN_RULES, type InstallRules, type RuledPackage } from './install-policy.ts';
import type { ChannelPackageStore } from './channel-package-store.ts';
import { convergeChannelPackages, type ConvergeFailure } from './converge-channel-packages.ts';
import { fetchChannelDependencies, type DependencyBundle } from './fetch-channel-dependencies.ts';
import type { FetchedPackage, FetchOptions, RegistrySettings } from './fetch-channel-package.ts';
import type { InstalledPackage, InstalledPackages, PackageAuditEntry } from './installed-packages.ts';

/** `off`: nothing is installed; `registry`: packages from the configured registry; `any`: uploads too. */
export type InstallPolicy = 'off' | 'registry' | 'any';

export interface ChannelPackageServiceOptions {
  installed: InstalledPackages;
  store: ChannelPackageStore;
  policy: InstallPolicy;
  /** The set is declared in BOT_CHANNELS_FILE: only `reconcile` changes it. */
  declarative?: boolean;
  /** Allow and deny lists, minimum release age; default none. */
  rules?: InstallRules;
  now?: () => Date;
  registry: RegistrySettings;
  /** The versions of the peers the host provides, as discovery checks them. */
  providedVersions: Record<string, string>;
  /** The host's app root: what a package's links may lead to is judged against it. */
  hostRoot: string;
  /** The registry's rescan, once the store holds the new set. */
  rescan(): Promise<RescanReport>;
  /**
   * Starts the staged package's channel in a sandbox of its own and describes it (the registry's
   * trial): it must load before it joins the set. Absent where no channel can run (the CLI).
   */
  trial?(file: ChannelFile): Promise<{ name: string }>;
  /** The channels registered now, by name, with the package each comes from. */
  registered?(): Array<{ name: string; package: { name: string } | undefined }>;
  /** What discovery made of a package's channel at the last rescan (the registry's diagnostics). */
  diagnostics(): Array<Pick<DiagnosticEntry, 'package' | 'name' | 'status' | 'code' | 'message'>>;
  /** Must apply `accept` (the operator's rules) before it downloads or returns anything. */
  fetch(spec: string, registry: RegistrySettings, options: Pick<FetchOptions, 'pinnedIntegrity' | 'accept'>): Promise<FetchedPackage>;
  fromUpload(tarball: Buffer, options: Pick<FetchOptions, 'pinnedIntegrity' | 'accept'>): Promise<FetchedPackage>;
  /** Fetches a package's dependencies from the registry into one bundle; fetchChannelDependencies by default. */
  fetchDependencies?: typeof fetchChannelDependencies;
}

/** What an install asks for: a registry spec (`bot-channel-x@1.2.0`) or an uploaded tarball. */
export type InstallRequest = ({ spec: string } | { tarball: Buffer }) & { integrity?: string; actor: string };

export interface InstallOutcome {
  package: InstalledPackage;
  /** What the rescan made of it: registered (and starting), or rejected with the code. */
  channel: { status: DiagnosticEntry['status'] | 'missing'; name?: string | undefined; code?: string | undefined; message?: string | undefined };
}

const PACKAGE_PREFIX = 'bot-channel-';

export class ChannelPackageService {
  readonly #options: ChannelPackageServiceOptions;
  /** One change at a time on this instance: each reads the set the one before left. */
  #queue: Promise<unknown> = Promise.resolve();
  #failures: ConvergeFailure[] = [];

  constructor(options: ChannelPackageServiceOptions) {
    this.#options = options;
  }

  get policy(): InstallPolicy {
    return this.#options.policy;
  }

  /** Whether the set is declared in BOT_CHANNELS_FILE (the API and the panel then only read it). */
  get declarative(): boolean {
    return this.#options.declarative ?? false;
  }

  list(): Promise<InstalledPackage[]> {
    return this.#options.installed.list();
  }

  audit(limit?: number): Promise<PackageAuditEntry[]> {
    return this.#options.installed.audit(limit);
  }

  /** What this instance could not apply of the installed set at its last convergence. */
  failures(): ConvergeFailure[] {
    return this.#failures;
  }

  /**
   * Fetches and checks a package without installing it: what the panel shows before the operator
   * confirms. The operator's rules apply as they would to the install.
   */
  preview(request: InstallRequest): Promise<FetchedPackage> {
    this.#allow(request);
    return this.#fetch(request);
  }

  install(request: InstallRequest): Promise<InstallOutcome> {
    return this.#serially(() => this.#install(this.#undeclared(request)));
  }

  remove(name: string, actor: string): Promise<void> {
    return this.#serially(async () => {
      this.#undeclared(name);
      if (!(await this.#options.installed.remove(name, actor))) throw new AppError('BOT_ERR_CHANNEL_PACKAGE_NOT_INSTALLED', `${name} is not installed by the host`);
      await this.#options.rescan();
    });
  }

  /**
   * Returns `name` to the version it replaced, on every instance, through the usual drain. That
   * version must meet the rules as they stand now (a deny entry or BOT_CHANNEL_REQUIRE_SIGNED
   * added since it was installed refuses it, audited).
   */
  rollback(name: string, actor: string): Promise<InstallOutcome> {
    return this.#serially(async () => {
      this.#undeclared(name);
      const rules = this.#options.rules ?? OPEN_RULES;
      const rolledBack = await this.#options.installed.rollback(name, actor, (previous) => checkStandingRules({ ...previous, fromRegistry: isFromRegistry(previous.trust) }, rules)).catch(async (error: unknown) => {
        if ((error as { code?: unknown }).code === 'BOT_ERR_CHANNEL_PACKAGE_POLICY') {
          await this.#options.installed.refused({ actor, action: 'rollback', name, version: null, integrity: null, outcome: 'BOT_ERR_CHANNEL_PACKAGE_POLICY', message: (error as Error).message });
        }
        throw error;
      });
      if (!rolledBack) {
        if (!(await this.#options.installed.get(name))) throw new AppError('BOT_ERR_CHANNEL_PACKAGE_NOT_INSTALLED', `${name} is not installed by the host`);
        throw new AppError('BOT_ERR_CHANNEL_PACKAGE_NO_PREVIOUS', `${name} replaced no earlier version to return to`);
      }
      await this.#options.rescan();
      return { package: rolledBack, channel: this.#channelOutcome(rolledBack) };
    });
  }

  /**
   * Makes the installed set what BOT_CHANNELS_FILE declares: each package installed at exactly its
   * version and integrity (fetched from the registry when it is not already the installed one),
   * the others removed. What fails is reported and left as it was; the rest goes on.
   */
  reconcile(declared: DeclaredPackage[], actor: string): Promise<ReconcileFailure[]> {
    return this.#serially(async () => {
      const failures: ReconcileFailure[] = [];
      const wanted = new Set(declared.map((entry) => entry.name));
      for (const entry of declared) {
        const current = await this.#options.installed.get(entry.name);
        if (current?.integrity === entry.integrity && current.version === entry.version) continue;
        await this.#install({ spec: `${entry.name}@${entry.version}`, integrity: entry.integrity, actor }).catch((error: unknown) => failures.push(failureOf(entry.name, error)));
      }
      for (const installed of await this.#options.installed.list()) {
        if (!wanted.has(installed.name)) await this.#options.installed.remove(installed.name, actor).catch((error: unknown) => failures.push(failureOf(installed.name, error)));
      }
      await this.#options.rescan();
      return failures;
    });
  }

  /**
   * Brings this instance's package folder to the installed set; the registry calls it before each
   * discovery. It never throws: what it cannot apply is kept for the listing, and the folder
   * keeps what it held (the database down, say: the versions on disk keep serving).
   */
  async converge(): Promise<void> {
    try {
      this.#failures = await convergeChannelPackages(this.#options.installed, this.#options.store);
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      this.#failures = [{ name: '*', version: '*', code: typeof code === 'string' ? code : 'BOT_ERR_CHANNEL_PACKAGE_APPLY_FAILED', message: (error as Error).message }];
    }
  }

  async #install(request: InstallRequest): Promise<InstallOutcome> {
    let fetched: FetchedPackage | undefined;
    try {
      this.#allow(request);
      // The operator's rules are applied by the fetch itself, before any download.
      fetched = await this.#fetch(request);
      const dependencies = await this.#dependencies(fetched);
      const stored = { ...fetched, dependenciesIntegrity: dependencies?.integrity ?? null };
      const packageDir = await this.#options.store.stage(stored, fetched.tarball, dependencies?.tarball);
      await this.#check(fetched, packageDir).catch(async (error: unknown) => {
        await this.#options.store.discard(stored);
        throw error;
      });
      const previous = await this.#options.installed.get(fetched.name);
      const entry = { name: fetched.name, version: fetched.version, integrity: fetched.integrity, trust: fetched.trust, manifest: fetched.manifest, installedBy: request.actor };
      await this.#options.installed.put({ ...entry, tarball: fetched.tarball, dependencies }, previous ? 'upgrade' : 'install');
    } catch (error) {
      await this.#refused(request, fetched, error);
      throw error;
    }
    // The rescan brings this instance's folder to the new set first (the registry's prepare step).
    await this.#options.rescan();
    const installed = (await this.#options.installed.get(fetched.name))!;
    return { package: installed, channel: this.#channelOutcome(installed) };
  }

  /** The API's changes, refused while a file declares the set (the next start would undo them). */
  #undeclared<T>(subject: T): T {
    if (this.#options.declarative) {
      throw new AppError('BOT_ERR_CHANNEL_INSTALL_DECLARATIVE', 'The channel packages are declared in BOT_CHANNELS_FILE: change the file instead');
    }
    return subject;
  }

  #allow(request: InstallRequest): void {
    const { policy } = this.#options;
    if (policy === 'off') throw new AppError('BOT_ERR_CHANNEL_INSTALL_OFF', 'Installing channel packages is turned off (BOT_CHANNEL_INSTALL=off)');
    if ('tarball' in request && policy !== 'any') {
      throw new AppError('BOT_ERR_CHANNEL_INSTALL_OFF', 'Uploaded tarballs are not accepted (BOT_CHANNEL_INSTALL=registry; `any` accepts them)');
    }
  }

  /** Fetched with the operator's rules applied as soon as they can be: a refused registry version is never downloaded. */
  #fetch(request: InstallRequest): Promise<FetchedPackage> {
    const accept = (candidate: RuledPackage) => checkInstallRules(candidate, this.#options.rules ?? OPEN_RULES, this.#options.now?.() ?? new Date());
    const options = { accept, ...(request.integrity === undefined ? {} : { pinnedIntegrity: request.integrity }) };
    return 'tarball' in request ? this.#options.fromUpload(request.tarball, options) : this.#options.fetch(request.spec, this.#options.registry, options);
  }

  /**
   * The package's dependencies, from the configured registry whatever the package came from (an
   * upload too): those it does not bundle and the host does not provide.
   */
  #dependencies(fetched: FetchedPackage): Promise<DependencyBundle | undefined> {
    const fetchDependencies = this.#options.fetchDependencies ?? fetchChannelDependencies;
    const options = {
      hostPeers: Object.keys(this.#options.providedVersions),
      bundled: fetched.manifest.bundleDependencies,
      requireSigned: (this.#options.rules ?? OPEN_RULES).requireSigned,
      // The keys the package was judged by: the registry gets no second chance to answer otherwise.
      ...(fetched.registryKeys === undefined ? {} : { registryKeys: fetched.registryKeys }),
    };
    return fetchDependencies(fetched.manifest.dependencies, `${fetched.name}@${fetched.version}`, this.#options.registry, options);
  }

  /**
   * The checks discovery makes before a package's code runs, on the staged copy: the name, the
   * manifest and peers, and its links. Its dependencies hold no links: the host's extractor
   * refuses them.
   */
  async #check(fetched: FetchedPackage, packageDir: string): Promise<void> {
    if (!fetched.name.startsWith(PACKAGE_PREFIX)) throw new AppError('BOT_ERR_CHANNEL_PACKAGE_NAME_INVALID', `Package "${fetched.name}" must be named ${PACKAGE_PREFIX}*`);
    const file = await findChannelFile(packageDir);
    if (!file) throw new AppError('BOT_ERR_CHANNEL_PACKAGE_NO_CHANNEL', `${fetched.name}@${fetched.version} holds no *.channel.js file`);
    const channel = { file, realFile: file, origin: 'package' as const };
    const manifest = await readPluginManifest(file, packageDir).catch(() => undefined);
    try {
      checkPluginManifest(channel, manifest, this.#options.providedVersions);
      await checkPluginLinks(pluginLinkPolicy(packageDir, [], { hostRoot: this.#options.hostRoot }));
      const trial = await this.#options.trial?.(channel);
      if (trial) this.#checkNameFree(trial.name, fetched.name);
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (isAppError(error) || typeof code !== 'string' || !code.startsWith('BOT_ERR_PLUGIN_')) throw error;
      throw new AppError('BOT_ERR_CHANNEL_PACKAGE_REJECTED', `${fetched.name}@${fetched.version}: ${(error as Error).message}`, { check: code });
    }
  }

  /** A channel name another package (or a local channel) already serves would be refused at the rescan. */
  #checkNameFree(channelName: string, packageName: string): void {
    const owner = this.#options.registered?.().find((entry) => entry.name === channelName);
    if (owner && owner.package?.name !== packageName) {
      throw new PluginRejection('BOT_ERR_PLUGIN_DUPLICATE_NAME', `Channel "${channelName}" is already served by ${owner.package?.name ?? 'a channel of the app'}`);
    }
  }

  async #refused(request: InstallRequest, fetched: FetchedPackage | undefined, error: unknown): Promise<void> {
    const code = (error as { code?: unknown }).code;
    const name = fetched?.name ?? ('spec' in request ? request.spec : '(upload)');
    await this.#options.installed.refused({
      actor: request.actor,
      action: 'install',
      name,
      version: fetched?.version ?? null,
      integrity: fetched?.integrity ?? null,
      outcome: typeof code === 'string' ? code : 'BOT_ERR_INTERNAL',
      message: (error as Error).message,
    });
  }

  #channelOutcome(installed: InstalledPackage): InstallOutcome['channel'] {
    const entry = this.#options.diagnostics().find((candidate) => candidate.package?.name === installed.name && candidate.package.version === installed.version);
    if (!entry) return { status: 'missing' };
    return { status: entry.status, name: entry.name, code: entry.code, message: entry.message };
  }

  #serially<T>(change: () => Promise<T>): Promise<T> {
    const next = this.#queue.then(change, change);
    this.#queue = next.catch(() => undefined);
    return next;
  }
}


/** Registry installs are `verified` or `unsigned`; uploads `pinned` or `unverified`. */
function isFromRegistry(trust: InstalledPackage['trust']): boolean {
  return trust === 'verified' || trust === 'unsigned';
}

/** A declared package the reconciliation could not apply. */
export interface ReconcileFailure {
  name: string;
  code: string;
  message: string;
}

function failureOf(name: string, error: unknown): ReconcileFailure {
  const code = (error as { code?: unknown }).code;
  return { name, code: typeof code === 'string' ? code : 'BOT_ERR_INTERNAL', message: (error as Error).message };
}
