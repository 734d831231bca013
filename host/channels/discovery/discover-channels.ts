import { fileURLToPath } from 'node:url';
import type { ChannelRuntimeStatus } from '../calls/channel-calls.ts';
import type { ChannelOrigin } from './scan-channel-files.ts';
import { scanChannelFiles, type ChannelFile } from './scan-channel-files.ts';
import { checkPluginLinks } from './check-plugin-links.ts';
import { checkPluginManifest } from './check-plugin-manifest.ts';
import { pluginLinkPolicy, pluginRoot, type ReadPathOptions } from '../runner/plugin-read-paths.ts';
import { readPluginManifest } from './read-plugin-manifest.ts';

/** The runner's code: the packages it resolves are the plugin's too. */
const RUNNER_DIR = fileURLToPath(new URL('../runner', import.meta.url));

/** What a channel says about itself once loaded in its sandbox. */
export interface ChannelDescription {
  kind: 'http' | 'websocket';
  name: string;
  settingsJsonSchema: Record<string, unknown>;
  capabilities: Record<string, unknown>;
}

/** A channel loaded in its own sandbox, ready for traffic. */
export interface LoadedChannel<S = unknown> {
  description: ChannelDescription;
  sandbox: S;
  close(): Promise<void>;
  /** Its isolation and runner state, for diagnostics. */
  status?(): ChannelRuntimeStatus;
}

export interface DiscoveryResult<S = unknown> {
  file: string;
  realFile: string;
  origin: ChannelOrigin;
  package: { name: string; version: string } | undefined;
  status: 'registered' | 'rejected';
  name: string | undefined;
  code: string | undefined;
  message: string | undefined;
  loaded: LoadedChannel<S> | undefined;
  /** The sandbox is one already running, handed back by `reuse`: discovery never closes it. */
  reused: boolean;
  /**
   * For a registered channel left unloaded because it is disabled (`dormant`): what it declared
   * when it was disabled. A loaded channel's description is `loaded.description`.
   */
  description?: ChannelDescription;
  /** The host names the package declares in `bot.egress` (none when rejected). */
  egress: string[];
}

export interface DiscoveryOptions<S> {
  appRoot: string;
  /** The host's own package folder (BOT_CHANNEL_STORE_DIR), scanned after the app root. */
  storeDir?: string;
  /**
   * What a plugin's links may lead to (link-policy.ts): the host's root and its private folders;
   * the other channels are those discovered.
   */
  links?: Omit<ReadPathOptions, 'otherChannels'>;
  providedVersions: Record<string, string>;
  /** Imports, checks and constructs the file inside a worker; throws an error with a `code`. */
  load(file: ChannelFile): Promise<LoadedChannel<S>>;
  /**
   * A sandbox already running this very code (same file, same fingerprint), to use instead of
   * loading the file again: a rescan then starts workers only for what changed.
   */
  reuse?(file: ChannelFile): Promise<LoadedChannel<S> | undefined>;
  /**
   * The stored declaration of a file whose channel is disabled: it is registered from it and
   * never imported, since a disabled channel's code must not run (DESIGN 5a).
   */
  dormant?(file: ChannelFile): Promise<{ name: string; description: ChannelDescription } | undefined>;
  /** Which of the files found to examine; default all. */
  include?(file: ChannelFile): boolean;
}

/**
 * The discovery pipeline: scan → read manifest → check manifest and peers → check links → load in
 * a worker (which checks the export and constructs it) → unique name. A bad file is rejected with
 * its code and never stops the others.
 */
export async function discoverChannels<S>(options: DiscoveryOptions<S>): Promise<DiscoveryResult<S>[]> {
  const scanned = await scanChannelFiles(options.appRoot, options.storeDir);
  // The SDK's built-in channels live inside the SDK every plugin reads: not "another channel".
  const roots = scanned.filter((file) => file.origin !== 'builtin').map((file) => pluginRoot(file.realFile));
  const files = scanned.filter((file) => options.include?.(file) ?? true);
  const results = await Promise.all(files.map((file) => examine(file, options, roots)));
  return rejectDuplicateNames(results);
}

async function examine<S>(channel: ChannelFile, options: DiscoveryOptions<S>, channelRoots: string[]): Promise<DiscoveryResult<S>> {
  const manifest = await readPluginManifest(channel.realFile, options.appRoot).catch(() => undefined);
  const base = {
    ...channel,
    package: manifest?.name && manifest.version ? { name: manifest.name, version: manifest.version } : undefined,
  };
  try {
    const { egress } = checkPluginManifest(channel, manifest, options.providedVersions);
    if (channel.origin !== 'builtin') await checkPluginLinks(linkPolicyOf(channel, options, channelRoots));
    const dormant = await options.dormant?.(channel);
    if (dormant) {
      return { ...base, status: 'registered', name: dormant.name, code: undefined, message: undefined, loaded: undefined, reused: false, egress, description: dormant.description };
    }
    const running = await options.reuse?.(channel);
    const loaded = running ?? (await options.load(channel));
    return { ...base, status: 'registered', name: loaded.description.name, code: undefined, message: undefined, loaded, reused: running !== undefined, egress };
  } catch (error) {
    const { code, message } = describeFailure(error);
    return { ...base, status: 'rejected', name: undefined, code, message, loaded: undefined, reused: false, egress: [] };
  }
}

function linkPolicyOf(channel: ChannelFile, options: DiscoveryOptions<unknown>, channelRoots: string[]) {
  const root = pluginRoot(channel.realFile);
  return pluginLinkPolicy(root, [RUNNER_DIR], { ...options.links, otherChannels: channelRoots.filter((other) => other !== root) });
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

function describeFailure(error: unknown): { code: string; message: string } {
  const code = (error as { code?: unknown } | null)?.code;
  return {
    code: typeof code === 'string' ? code : 'BOT_ERR_PLUGIN_LOAD_FAILED',
    message: error instanceof Error ? error.message : String(error),
  };
}
