import { realpath } from 'node:fs/promises';
import path from 'node:path';
import { glob } from 'glob';

export type ChannelOrigin = 'builtin' | 'package' | 'local';

/** Where channels are found, relative to the app root (SPEC "Discovery and packaging"). */
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
 * Lists every channel file under the app root, once each. A package's own dependencies
 * (`node_modules/bot-channel-x/node_modules/**`) are not channels of the host.
 */
export async function scanChannelFiles(appRoot: string): Promise<ChannelFile[]> {
  const found = new Map<string, ChannelFile>();
  for (const { pattern, origin } of CHANNEL_PATTERNS) {
    const files = await glob(pattern, { cwd: appRoot, nodir: true, ignore: ['node_modules/*/node_modules/**', 'node_modules/@*/*/node_modules/**'] });
    for (const relative of files.sort()) {
      const realFile = await realpath(path.join(appRoot, relative));
      if (!found.has(realFile)) found.set(realFile, { file: relative, realFile, origin });
    }
  }
  return [...found.values()];
}
