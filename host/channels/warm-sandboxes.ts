import type { LoadedChannel } from './discovery/discovered-channel.ts';
import type { ChannelFile } from './discovery/scan-channel-files.ts';

/** How long a trial's sandbox waits for the discovery that would use it before it is closed. */
const KEEP_WARM_MS = 60_000;

/**
 * Sandboxes started to try a channel file out (an install's trial start), kept running for the
 * discovery that follows: it takes the one of the same file and the same code instead of starting
 * another, so a new version's runner starts once, not twice. One nobody takes is closed after a
 * minute; one whose code changed meanwhile is closed and not used.
 */
export class WarmSandboxes<S> {
  readonly #warm = new Map<string, { loaded: LoadedChannel<S>; fingerprint: string; timer: NodeJS.Timeout }>();

  constructor(
    private readonly start: (file: ChannelFile) => Promise<LoadedChannel<S>>,
    private readonly fingerprint: (realFile: string) => Promise<string>,
  ) {}

  /** Starts `file` and keeps it warm; resolves with what it says of itself. */
  async trial(file: ChannelFile): Promise<LoadedChannel<S>['description']> {
    const loaded = await this.start(file);
    const fingerprint = await this.fingerprint(file.realFile).catch(async (error: unknown) => {
      await loaded.close();
      throw error;
    });
    this.#put(file.realFile, loaded, fingerprint);
    return loaded.description;
  }

  /** The warm sandbox of `file` when its code is still the same, else a new one. */
  async load(file: ChannelFile): Promise<LoadedChannel<S>> {
    const warm = this.#take(file.realFile);
    if (warm && warm.fingerprint === (await this.fingerprint(file.realFile).catch(() => undefined))) return warm.loaded;
    await warm?.loaded.close();
    return this.start(file);
  }

  /** Closes every sandbox still waiting. */
  async close(): Promise<void> {
    await Promise.allSettled([...this.#warm.keys()].map((realFile) => this.#take(realFile)?.loaded.close()));
  }

  #put(realFile: string, loaded: LoadedChannel<S>, fingerprint: string): void {
    void this.#take(realFile)?.loaded.close();
    const timer = setTimeout(() => void this.#take(realFile)?.loaded.close(), KEEP_WARM_MS).unref();
    this.#warm.set(realFile, { loaded, fingerprint, timer });
  }

  #take(realFile: string): { loaded: LoadedChannel<S>; fingerprint: string } | undefined {
    const warm = this.#warm.get(realFile);
    if (!warm) return undefined;
    this.#warm.delete(realFile);
    clearTimeout(warm.timer);
    return warm;
  }
}
