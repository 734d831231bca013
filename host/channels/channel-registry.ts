import type { ChannelDescription, DiscoveryResult, LoadedChannel } from './discovery/discovered-channel.ts';
import type { ChannelFile, ChannelOrigin } from './discovery/scan-channel-files.ts';
import type { ChannelRuntimeStatus } from './calls/channel-calls.ts';
import { ChannelUnavailableError } from './channel-unavailable-error.ts';
import { diffChannels, type RescanReport } from './rescan-report.ts';
import { codesWhere } from '../errors/codes-where.ts';
import { describeError, errorCode } from '../errors/describe-error.ts';

export interface DiagnosticEntry {
  file: string;
  package: { name: string; version: string } | undefined;
  name: string | undefined;
  status: 'registered' | 'disabled' | 'rejected';
  code: string | undefined;
  message: string | undefined;
  /** How its code is isolated while it runs (`sandbox`, `reduced`, `builtin`); undefined when it is not running. */
  isolation: ChannelRuntimeStatus['isolation'] | undefined;
  /** Why the isolation is `reduced`. */
  isolationReason: string | undefined;
  /** The layers of its runner's isolation, e.g. `bubblewrap, seccomp; landlock: unavailable (setpriv without landlock)`. */
  isolationDetail: string | undefined;
  /** Whether its runner's processes are under the seccomp filter, read from /proc at the time of asking. */
  seccomp: boolean | undefined;
  /** Its runner process while it runs: pid, state, restarts so far and why it last ended. */
  runner: Pick<ChannelRuntimeStatus, 'pid' | 'state' | 'restarts' | 'lastExit'> | undefined;
  /** Where its `fetch` may go beyond its sources' `x-egress` settings: the manifest's `bot.egress`. */
  egress: string[];
}

/** A channel that passed every check; it serves traffic while enabled and running. */
export interface ChannelEntry<S> extends ChannelFile {
  name: string;
  package: { name: string; version: string } | undefined;
  origin: ChannelOrigin;
  /** Hash of the channel's code on disk; a rescan replaces the pool only when it changed. */
  fingerprint: string;
  /** The host names its package declares in `bot.egress`: where its `fetch` may go (public addresses only). */
  egress: string[];
  description: ChannelDescription;
  enabled: boolean;
  /** The running sandbox pool; absent while disabled, or when it failed to start (see `failure`). */
  loaded: LoadedChannel<S> | undefined;
  failure: { code: string; message: string } | undefined;
}

/** A registered channel with a running pool, as handed to callers. */
export type RunningChannel<S> = ChannelEntry<S> & { loaded: LoadedChannel<S> };

export interface ChannelRegistryDeps<S> {
  /**
   * Scans the app root and loads every channel file in a fresh sandbox of its own, but for those
   * `reuse` hands a running sandbox for.
   */
  discover(
    reuse: (file: ChannelFile) => Promise<LoadedChannel<S> | undefined>,
    dormant: (file: ChannelFile) => Promise<{ name: string; description: ChannelDescription } | undefined>,
    include: (file: ChannelFile) => boolean,
    /** The origins `include` keeps; undefined for all. */
    origins?: readonly ChannelOrigin[],
  ): Promise<DiscoveryResult<S>[]>;
  /** Starts a sandbox for one file again (enabling a channel that was disabled). */
  start(file: ChannelFile): Promise<LoadedChannel<S>>;
  /**
   * Starts a file to try it out, resolving with what it says of itself; the sandbox may be kept
   * for the discovery that follows (WarmSandboxes). Default: start, describe, close.
   */
  trial?(file: ChannelFile): Promise<ChannelDescription>;
  /** Closes what `trial` kept and no discovery took. */
  closeTrials?(): Promise<void>;
  fingerprint(realFile: string): Promise<string>;
  /** The operators' enabled choices; a channel absent from the map is enabled. */
  enabledStates(): Promise<Map<string, boolean>>;
  /** What disabled channels declared when disabled, by file (ChannelStateStore.disabledDeclarations). */
  disabledDeclarations?(): Promise<Map<string, { name: string; fingerprint: string; description: ChannelDescription }>>;
}

const SANDBOX_CLOSING = codesWhere('sandboxClosing');

/**
 * The channels this host serves. Every change (discovery, rescan, enable, disable) runs one at
 * a time and follows the same rule: start the new pool, switch traffic to it, then drain and
 * close the pool it replaced, so a request in flight during a switch finishes on the pool it
 * started on and a request arriving after it lands on the new one.
 */
export class ChannelRegistry<S = unknown> {
  #entries = new Map<string, ChannelEntry<S>>();
  #rejected: DiscoveryResult<S>[] = [];
  #changes: Promise<unknown> = Promise.resolve();
  #closed = false;

  constructor(private readonly deps: ChannelRegistryDeps<S>) {}

  /**
   * The first discovery; the same as a rescan. `origins` limits it to those channels: the host
   * loads the SDK's built-in ones (trusted, in its own threads, quick) before it serves, and the
   * rest in the background with a full rescan, so a plugin slow to import delays nothing.
   */
  load(options: { origins?: ChannelOrigin[] } = {}): Promise<RescanReport> {
    return this.rescan(options);
  }

  /**
   * Discovers again: new channels are added, vanished ones removed, and a channel whose code
   * changed on disk (an upgraded package, a rebuilt local channel) moves to a new pool while the
   * old one drains. Unchanged channels keep their running pool. Resolves once old pools are closed.
   */
  rescan({ origins }: { origins?: ChannelOrigin[] } = {}): Promise<RescanReport> {
    return this.#serialize(async () => {
      // The fingerprint that justified reusing a pool is the one it is kept under: hashing the
      // files again could see an upgrade landing meanwhile and pin the old code under the new hash.
      const reusedAs = new Map<LoadedChannel<S>, string>();
      const declarations = (await this.deps.disabledDeclarations?.()) ?? new Map();
      const results = await this.deps.discover(
        (file) => this.#runningSameCode(file, reusedAs),
        async (file) => declarations.get(file.file),
        (file) => origins === undefined || origins.includes(file.origin),
        origins,
      );
      let states: Map<string, boolean>;
      let entries: ChannelEntry<S>[];
      try {
        states = await this.deps.enabledStates();
        entries = await Promise.all(results.filter(isRegistered).map((result) => this.#entryFor(result, result.loaded && reusedAs.get(result.loaded))));
      } catch (error) {
        // Nothing switched: the pools this discovery started must not outlive it.
        await closeAll(results.flatMap((result) => (result.loaded && !result.reused ? [result.loaded] : [])));
        throw error;
      }
      const previous = this.#entries;
      const next = new Map<string, ChannelEntry<S>>();
      const toClose = new Set<LoadedChannel<S>>();
      for (const entry of entries) {
        const old = previous.get(entry.name);
        if (old && old.fingerprint === entry.fingerprint && old.realFile === entry.realFile && old.loaded) {
          if (entry.loaded && entry.loaded !== old.loaded) toClose.add(entry.loaded); // the same code: the warm pool stays
          entry.loaded = old.loaded;
        }
        entry.enabled = states.get(entry.name) ?? true;
        if (!entry.enabled && entry.loaded) {
          toClose.add(entry.loaded);
          entry.loaded = undefined;
        }
        next.set(entry.name, entry);
      }
      for (const old of previous.values()) {
        if (old.loaded && next.get(old.name)?.loaded !== old.loaded) toClose.add(old.loaded);
      }
      this.#entries = next;
      this.#rejected = results.filter((result) => result.status === 'rejected');
      await closeAll([...toClose]);
      return diffChannels(previous, next, this.#rejected);
    });
  }

  /**
   * Brings every channel to its stored enabled state: starts the pools of enabled channels that
   * have none, drains and closes those of disabled ones. Idempotent, so every instance runs it
   * on each notice (and after reconnecting, for the notices it may have missed).
   */
  applyStates(): Promise<void> {
    return this.#serialize(async () => {
      const states = await this.deps.enabledStates();
      await Promise.all([...this.#entries.values()].map((entry) => this.#applyState(entry, states.get(entry.name) ?? true)));
    });
  }

  /**
   * Calls into a running channel's sandbox. `use` must call the sandbox before its first await,
   * so a switch cannot close the pool between the lookup and the call; a call that still meets
   * a pool closed by a switch is retried once on the pool that replaced it.
   */
  async call<T>(name: string, use: (sandbox: S) => Promise<T>): Promise<T> {
    const first = this.running(name);
    if (!first) throw new ChannelUnavailableError(name);
    try {
      return await use(first.loaded.sandbox);
    } catch (error) {
      const replacement = this.running(name);
      if (!SANDBOX_CLOSING.has(errorCode(error) ?? '') || !replacement || replacement.loaded === first.loaded) throw error;
      return use(replacement.loaded.sandbox);
    }
  }

  /**
   * Starts `file` in a sandbox of its own beside everything running and asks it to describe
   * itself: how an install proves a package loads before any traffic could move to it. Throws the
   * check's coded error when it does not.
   */
  async trial(file: ChannelFile): Promise<ChannelDescription> {
    if (this.deps.trial) return this.deps.trial(file);
    const loaded = await this.deps.start(file);
    try {
      return loaded.description;
    } finally {
      await loaded.close();
    }
  }

  /** The channel if it is enabled and its pool is running. */
  running(name: string): RunningChannel<S> | undefined {
    const entry = this.#entries.get(name);
    return entry?.enabled && entry.loaded ? (entry as RunningChannel<S>) : undefined;
  }

  /** Every registered channel, enabled or not. */
  registered(): ChannelEntry<S>[] {
    return [...this.#entries.values()];
  }

  /** A registered channel, enabled or not. */
  get(name: string): ChannelEntry<S> | undefined {
    return this.#entries.get(name);
  }

  /** The published settings JSON Schema of a registered channel (for source settings). */
  settingsSchemaOf(name: string): Record<string, unknown> | undefined {
    return this.#entries.get(name)?.description.settingsJsonSchema;
  }

  diagnostics(): DiagnosticEntry[] {
    const registered = [...this.#entries.values()].map((entry) => {
      const runtime = entry.loaded?.status?.();
      return {
        file: entry.file,
        package: entry.package,
        name: entry.name,
        status: entry.enabled ? ('registered' as const) : ('disabled' as const),
        code: entry.failure?.code,
        message: entry.failure?.message,
        isolation: runtime?.isolation,
        isolationReason: runtime?.isolationReason,
        isolationDetail: runtime?.isolationDetail,
        seccomp: runtime?.seccomp,
        runner: runtime && runtime.isolation !== 'builtin' ? { pid: runtime.pid, state: runtime.state, restarts: runtime.restarts, lastExit: runtime.lastExit } : undefined,
        egress: entry.egress,
      };
    });
    const rejected = this.#rejected.map(({ file, package: pkg, name, code, message }) => ({
      file,
      package: pkg,
      name,
      status: 'rejected' as const,
      code,
      message,
      isolation: undefined,
      isolationReason: undefined,
      isolationDetail: undefined,
      seccomp: undefined,
      runner: undefined,
      egress: [],
    }));
    return [...registered, ...rejected].sort((a, b) => a.file.localeCompare(b.file));
  }

  /** Closes every pool once the change in progress is done; the registry serves nothing after. */
  close(): Promise<void> {
    return this.#serialize(async () => {
      this.#closed = true;
      const loaded = [...this.#entries.values()].flatMap((entry) => (entry.loaded ? [entry.loaded] : []));
      this.#entries = new Map();
      await closeAll(loaded);
      await this.deps.closeTrials?.();
    });
  }

  /** The running pool of the same file, when its code on disk has not changed since it started. */
  async #runningSameCode(file: ChannelFile, reusedAs: Map<LoadedChannel<S>, string>): Promise<LoadedChannel<S> | undefined> {
    const current = [...this.#entries.values()].find((entry) => entry.realFile === file.realFile && entry.loaded);
    if (!current?.loaded) return undefined;
    if ((await this.deps.fingerprint(file.realFile)) !== current.fingerprint) return undefined;
    reusedAs.set(current.loaded, current.fingerprint);
    return current.loaded;
  }

  async #entryFor(result: RegisteredResult<S>, knownFingerprint?: string): Promise<ChannelEntry<S>> {
    return {
      file: result.file,
      realFile: result.realFile,
      origin: result.origin,
      name: result.name,
      package: result.package,
      fingerprint: knownFingerprint ?? (await this.deps.fingerprint(result.realFile)),
      egress: result.egress,
      description: result.loaded?.description ?? result.description!,
      enabled: true,
      loaded: result.loaded,
      failure: undefined,
    };
  }

  async #applyState(entry: ChannelEntry<S>, enabled: boolean): Promise<void> {
    entry.enabled = enabled;
    if (!enabled && entry.loaded) {
      const loaded = entry.loaded;
      entry.loaded = undefined;
      entry.failure = undefined;
      await loaded.close();
    } else if (enabled && !entry.loaded) {
      try {
        const loaded = await this.deps.start(entry);
        if (loaded.description.name !== entry.name) {
          await loaded.close();
          entry.failure = { code: 'BOT_ERR_PLUGIN_DUPLICATE_NAME', message: `The file now declares channel "${loaded.description.name}"; rescan to pick it up` };
          return;
        }
        entry.loaded = loaded;
        entry.description = loaded.description; // a dormant entry's was the one stored at disable
        entry.failure = undefined;
      } catch (error) {
        entry.failure = describeError(error, 'BOT_ERR_PLUGIN_LOAD_FAILED');
      }
    }
  }

  #serialize<T>(change: () => Promise<T>): Promise<T> {
    const run = this.#changes.then(() => {
      if (this.#closed) throw new Error('The channel registry is closed');
      return change();
    });
    this.#changes = run.catch(() => undefined);
    return run;
  }
}

/** A registered result: loaded, or dormant (disabled, listed from its stored declaration). */
type RegisteredResult<S> = DiscoveryResult<S> & { name: string };

function isRegistered<S>(result: DiscoveryResult<S>): result is RegisteredResult<S> {
  return result.status === 'registered' && (result.loaded !== undefined || result.description !== undefined) && result.name !== undefined;
}

async function closeAll<S>(loaded: LoadedChannel<S>[]): Promise<void> {
  await Promise.all(loaded.map((channel) => channel.close()));
}
