import { checkChannelFiles, describeFailure, type CheckedChannelFile, type CheckOptions } from './discovery/check-channel-files.ts';
import type { ChannelDescription, DiscoveryResult, LoadedChannel } from './discovery/discovered-channel.ts';
import type { ChannelFile } from './discovery/scan-channel-files.ts';

export interface DiscoveryOptions<S> extends CheckOptions {
  /** Imports, checks and constructs the file inside its sandbox; throws an error with a `code`. */
  load(file: ChannelFile): Promise<LoadedChannel<S>>;
  /**
   * A sandbox already running this very code (same file, same fingerprint), to use instead of
   * loading the file again: a rescan then starts sandboxes only for what changed.
   */
  reuse?(file: ChannelFile): Promise<LoadedChannel<S> | undefined>;
  /**
   * The stored declaration of a file whose channel is disabled: it is registered from it and
   * never imported, since a disabled channel's code must not run.
   */
  dormant?(file: ChannelFile): Promise<{ name: string; description: ChannelDescription } | undefined>;
}

/**
 * The registry's discovery: the checks that run no plugin code (checkChannelFiles), then, for
 * each file that passed, the registry's choice: registered from its stored declaration while
 * disabled, a running sandbox of the same code reused, or loaded in a sandbox of its own (which
 * checks the export and constructs it); last, one channel per name.
 */
export async function discoverChannels<S>(options: DiscoveryOptions<S>): Promise<DiscoveryResult<S>[]> {
  const checked = await checkChannelFiles(options);
  return rejectDuplicateNames(await Promise.all(checked.map((file) => load(file, options))));
}

async function load<S>(checked: CheckedChannelFile, options: DiscoveryOptions<S>): Promise<DiscoveryResult<S>> {
  const { file, realFile, origin, package: manifest } = checked;
  const channel = { file, realFile, origin };
  const base = { ...channel, package: manifest };
  if (!checked.passed) return { ...base, status: 'rejected', name: undefined, code: checked.code, message: checked.message, loaded: undefined, reused: false, egress: [] };
  try {
    const dormant = await options.dormant?.(channel);
    if (dormant) {
      return { ...base, status: 'registered', name: dormant.name, code: undefined, message: undefined, loaded: undefined, reused: false, egress: checked.egress, description: dormant.description };
    }
    const running = await options.reuse?.(channel);
    const loaded = running ?? (await options.load(channel));
    return { ...base, status: 'registered', name: loaded.description.name, code: undefined, message: undefined, loaded, reused: running !== undefined, egress: checked.egress };
  } catch (error) {
    return { ...base, status: 'rejected', name: undefined, ...describeFailure(error), loaded: undefined, reused: false, egress: [] };
  }
}

/** The first file with a name keeps it (patterns are scanned builtin, package, local). */
async function rejectDuplicateNames<S>(results: DiscoveryResult<S>[]): Promise<DiscoveryResult<S>[]> {
  const owners = new Map<string, string>();
  for (const result of results) {
    if (result.status !== 'registered' || !result.name) continue;
    const owner = owners.get(result.name);
    if (owner === undefined) {
      owners.set(result.name, result.file);
      continue;
    }
    if (!result.reused) await result.loaded?.close();
    Object.assign(result, {
      status: 'rejected',
      code: 'BOT_ERR_PLUGIN_DUPLICATE_NAME',
      message: `Channel "${result.name}" is already registered by ${owner}`,
      loaded: undefined,
    });
  }
  return results;
}
