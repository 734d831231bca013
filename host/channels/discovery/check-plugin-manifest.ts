import { createRequire } from 'node:module';
import semver from 'semver';
import { checkEgressHosts } from './check-egress-hosts.ts';
import type { ChannelFile } from './scan-channel-files.ts';
import { PluginRejection } from './plugin-rejection.ts';
import type { PluginManifest } from './read-plugin-manifest.ts';

const PACKAGE_PREFIX = 'bot-channel-';

/** What the manifest check establishes for the host to act on. */
export interface CheckedManifest {
  /** The host names the plugin may reach (`bot.egress`), normalised. */
  egress: string[];
}

/**
 * Checks a package channel's manifest before any of its code runs: the name prefix, the two
 * required exports, every peer range (checked with semver against what the host provides, or
 * resolvable from the plugin's own folder) and the egress hosts. Throws a PluginRejection
 * naming the first problem.
 */
export function checkPluginManifest(channel: ChannelFile, manifest: PluginManifest | undefined, provided: Record<string, string>): CheckedManifest {
  if (!manifest) throw new PluginRejection('BOT_ERR_PLUGIN_MANIFEST_MISSING', `No package.json found above ${channel.file}`);
  if (channel.origin === 'package') checkPackageShape(manifest);
  for (const [peer, range] of Object.entries(manifest.peerDependencies)) checkPeer(manifest, peer, range, provided);
  return { egress: checkEgressHosts(manifest.egress) };
}

function checkPackageShape(manifest: PluginManifest): void {
  if (!manifest.name?.startsWith(PACKAGE_PREFIX)) {
    throw new PluginRejection('BOT_ERR_PLUGIN_PACKAGE_NAME', `Package "${manifest.name ?? '(unnamed)'}" must be named ${PACKAGE_PREFIX}*`);
  }
  const exports = manifest.exports;
  const keys = typeof exports === 'object' && exports !== null ? Object.keys(exports) : [];
  const missing = ['.', './index.channel'].filter((key) => !keys.includes(key));
  if (missing.length > 0) {
    throw new PluginRejection('BOT_ERR_PLUGIN_PACKAGE_EXPORTS', `Package "${manifest.name}" does not export ${missing.map((key) => `"${key}"`).join(' and ')}`);
  }
}

function checkPeer(manifest: PluginManifest, peer: string, range: string, provided: Record<string, string>): void {
  const version = provided[peer];
  if (version === undefined) {
    if (!resolvesFrom(manifest.dir, peer)) {
      throw new PluginRejection('BOT_ERR_PLUGIN_PEER_UNRESOLVED', `Peer "${peer}" is not provided by the host and cannot be resolved from ${manifest.name ?? manifest.dir}`);
    }
    return;
  }
  if (!semver.satisfies(version, range, { includePrerelease: true })) {
    throw new PluginRejection('BOT_ERR_PLUGIN_PEER_UNSATISFIED', `Peer "${peer}@${range}" excludes ${version}, the version the host provides`);
  }
}

function resolvesFrom(dir: string, name: string): boolean {
  try {
    createRequire(`${dir}/package.json`).resolve(`${name}/package.json`);
    return true;
  } catch {
    try {
      createRequire(`${dir}/package.json`).resolve(name);
      return true;
    } catch {
      return false;
    }
  }
}
