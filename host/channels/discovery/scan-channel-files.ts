import { realpath } from 'node:fs/promises';
import path from 'node:path';
import { glob } from 'glob';

export type ChannelOrigin = 'builtin' | 'package' | 'local';

/** Where channels are found, relative to the app root; docs/channels.md says how a channel is packaged for each. */
export const CHANNEL_PATTERNS: readonly { pattern: string; origin: ChannelOrigin }[] = [
  { pattern: 'node_modules/@bot-ai/api/dist/extensions/channels/**/*.channel.js', origin: 'builtin' },
  { pattern: 'node_modules/bot-channel-*/**/*.channel.js', origin: 'package' },
  { pattern: 'dist/extensions/channels/**/*.channel.js', origin: 'local' },
];

export interface ChannelFile {
  /** The path as found under the app root (what diagnostics show). */
  file: string;
  /** The real path (packages are often symlinks, e.g. npm workspaces); what is imported. */
  realFile: string;
  origin: ChannelOrigin;
}

/**
 * Where the packages the host installed itself are found in its package folder: each name's
 * current version (see channel-package-store.ts), the package under its own name only.
 */
const STORE_PATTERN = '*/current/node_modules/bot-channel-*/**/*.channel.js';

/**
 * Lists every channel file under the app root, then in the host's package folder (`storeDir`),
 * once each. A package's own dependencies (`node_modules/bot-channel-x/node_modules/**`) are not
 * channels of the host. A package installed both ways is found under the app root first.
 */
export async function scanChannelFiles(appRoot: string, storeDir?: string): Promise<ChannelFile[]> {
  const found = new Map<string, ChannelFile>();
  const add = (file: string, realFile: string, origin: ChannelOrigin) => {
    if (!found.has(realFile)) found.set(realFile, { file, realFile, origin });
  };
  for (const { pattern, origin } of CHANNEL_PATTERNS) {
    const files = await glob(pattern, { cwd: appRoot, nodir: true, ignore: ['node_modules/*/node_modules/**', 'node_modules/@*/*/node_modules/**'] });
    for (const relative of files.sort()) add(relative, await realpath(path.join(appRoot, relative)), origin);
  }
  if (storeDir === undefined) return [...found.values()];
  const stored = await glob(STORE_PATTERN, { cwd: storeDir, nodir: true, ignore: ['*/current/node_modules/*/node_modules/**'] });
  for (const relative of stored.sort()) {
    const [name, , , packageName] = relative.split('/');
    // A name folder holds that package only: anything else there is not the host's doing.
    if (name === packageName) add(path.join(storeDir, relative), await realpath(path.join(storeDir, relative)), 'package');
  }
  return [...found.values()];
}
