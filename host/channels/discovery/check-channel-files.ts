import { fileURLToPath } from 'node:url';
import { describeError, type ErrorDescription } from '../../errors/describe-error.ts';
import { pluginLinkPolicy, pluginRoot, type ReadPathOptions } from '../runner/plugin-read-paths.ts';
import { checkPluginLinks } from './check-plugin-links.ts';
import { checkPluginManifest } from './check-plugin-manifest.ts';
import { readPluginManifest } from './read-plugin-manifest.ts';
import { scanChannelFiles, type ChannelFile } from './scan-channel-files.ts';

/** The runner's code: the packages it resolves are the plugin's too. */
const RUNNER_DIR = fileURLToPath(new URL('../runner', import.meta.url));

export interface CheckOptions {
  appRoot: string;
  /** The host's own package folder (BOT_CHANNEL_STORE_DIR), scanned after the app root. */
  storeDir?: string;
  /**
   * What a plugin's links may lead to (link-policy.ts): the host's root and its private folders;
   * the other channels are those found.
   */
  links?: Omit<ReadPathOptions, 'otherChannels'>;
  providedVersions: Record<string, string>;
  /** Which of the files found to check; default all. */
  include?(file: ChannelFile): boolean;
}

/** A channel file after the checks that run none of its code: passed (with what they found) or refused. */
export type CheckedChannelFile = ChannelFile & {
  package: { name: string; version: string } | undefined;
} & ({ passed: true; egress: string[] } | { passed: false; code: string; message: string });

/**
 * The part of discovery that runs no plugin code: scan → read manifest → check manifest, peers
 * and egress hosts → check links. Whether and how a passed file is loaded is the registry's
 * decision (discover-channels.ts). A bad file is refused with its code and never stops the others.
 * @example const checked = await checkChannelFiles({ appRoot, providedVersions }); // [{ file, passed: true, egress }, …]
 */
export async function checkChannelFiles(options: CheckOptions): Promise<CheckedChannelFile[]> {
  const scanned = await scanChannelFiles(options.appRoot, options.storeDir);
  // The SDK's built-in channels live inside the SDK every plugin reads: not "another channel".
  const roots = scanned.filter((file) => file.origin !== 'builtin').map((file) => pluginRoot(file.realFile));
  const files = scanned.filter((file) => options.include?.(file) ?? true);
  return Promise.all(files.map((file) => check(file, options, roots)));
}

async function check(channel: ChannelFile, options: CheckOptions, channelRoots: string[]): Promise<CheckedChannelFile> {
  const manifest = await readPluginManifest(channel.realFile, options.appRoot).catch(() => undefined);
  const base = { ...channel, package: manifest?.name && manifest.version ? { name: manifest.name, version: manifest.version } : undefined };
  try {
    const { egress } = checkPluginManifest(channel, manifest, options.providedVersions);
    if (channel.origin !== 'builtin') await checkPluginLinks(linkPolicyOf(channel, options, channelRoots));
    return { ...base, passed: true, egress };
  } catch (error) {
    return { ...base, passed: false, ...describeFailure(error) };
  }
}

function linkPolicyOf(channel: ChannelFile, options: CheckOptions, channelRoots: string[]) {
  const root = pluginRoot(channel.realFile);
  return pluginLinkPolicy(root, [RUNNER_DIR], { ...options.links, otherChannels: channelRoots.filter((other) => other !== root) });
}

/** The error's code (a plugin check's `BOT_ERR_PLUGIN_*`), else the generic load failure. */
export function describeFailure(error: unknown): ErrorDescription {
  return describeError(error, 'BOT_ERR_PLUGIN_LOAD_FAILED');
}
