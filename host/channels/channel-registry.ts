import type { DiscoveryResult, LoadedChannel } from './discovery/discover-channels.ts';

export interface DiagnosticEntry {
  file: string;
  package: { name: string; version: string } | undefined;
  name: string | undefined;
  status: 'registered' | 'disabled' | 'rejected';
  code: string | undefined;
  message: string | undefined;
}

/** A channel that passed every check and has a running sandbox. */
export type RegisteredChannel<S> = DiscoveryResult<S> & { name: string; loaded: LoadedChannel<S> };

/**
 * The channels this host serves, from the last discovery. Rejected files are kept only as
 * diagnostics: they never serve traffic and never appear in the channel list.
 */
export class ChannelRegistry<S = unknown> {
  #results: DiscoveryResult<S>[] = [];

  constructor(private readonly discover: () => Promise<DiscoveryResult<S>[]>) {}

  /** Runs discovery and swaps the registry over to its result, closing the sandboxes replaced. */
  async load(): Promise<void> {
    const previous = this.#results;
    this.#results = await this.discover();
    await Promise.all(previous.map((result) => result.loaded?.close()));
  }

  registered(): RegisteredChannel<S>[] {
    return this.#results.filter((result): result is RegisteredChannel<S> => result.status === 'registered');
  }

  get(name: string): RegisteredChannel<S> | undefined {
    return this.registered().find((channel) => channel.name === name);
  }

  /** The published settings JSON Schema of a registered channel (for source settings). */
  settingsSchemaOf(name: string): Record<string, unknown> | undefined {
    return this.get(name)?.loaded.description.settingsJsonSchema;
  }

  diagnostics(): DiagnosticEntry[] {
    return this.#results.map(({ file, package: pkg, name, status, code, message }) => ({
      file,
      package: pkg,
      name,
      status,
      code,
      message,
    }));
  }

  async close(): Promise<void> {
    const results = this.#results;
    this.#results = [];
    await Promise.all(results.map((result) => result.loaded?.close()));
  }
}
