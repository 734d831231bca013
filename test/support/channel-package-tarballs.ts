/** Channel package tarballs written on the fly, as a registry would serve them. */
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { upgradableChannelSource } from '../channels/hot-enable/upgradable-plugin-root.ts';
import { packFolder } from './build-tarball.ts';
import { createPluginRoot, writeChannelPackage } from './temp-plugin-root.ts';

export interface PackedChannel {
  manifest: Record<string, unknown>;
  tarball: Buffer;
}

/**
 * `bot-channel-<name>` at `version`, whose decode prefixes each text with the version (so a test
 * can tell which version served), its manifest changed by `edit`.
 */
export function packedChannel(name: string, version: string, edit: (manifest: Record<string, unknown>) => void = () => {}): Promise<PackedChannel> {
  return packedChannelOf(name, version, upgradableChannelSource(name, version), edit);
}

/** `bot-channel-<name>` at `version` whose channel file is `source`, its manifest changed by `edit`. */
export async function packedChannelOf(name: string, version: string, source: string, edit: (manifest: Record<string, unknown>) => void = () => {}): Promise<PackedChannel> {
  const root = await createPluginRoot('bot-packed-channel-');
  try {
    await writeChannelPackage(root, name, source, version);
    const folder = path.join(root, 'node_modules', `bot-channel-${name}`);
    const manifest = JSON.parse(await readFile(path.join(folder, 'package.json'), 'utf8')) as Record<string, unknown>;
    edit(manifest);
    await writeFile(path.join(folder, 'package.json'), JSON.stringify(manifest, null, 2));
    return { manifest, tarball: await packFolder(folder) };
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}
