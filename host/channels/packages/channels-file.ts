import { readFile } from 'node:fs/promises';
import semver from 'semver';
import { AppError } from '../../errors/app-error.ts';
import { checkChannelPackageName } from './parse-channel-package-spec.ts';

/** One package a channels file declares: exactly this version, exactly this tarball. */
export interface DeclaredPackage {
  name: string;
  version: string;
  integrity: string;
}

const LINE = /^(?<name>[^@\s]+)@(?<version>[^#\s]+)#(?<integrity>sha512-[A-Za-z0-9+/]{86}==)$/;

/**
 * Reads BOT_CHANNELS_FILE: one `name@version#integrity` a line (the integrity as npm writes it
 * in package-lock.json), blank lines and `#` comment lines aside. Everything is pinned, so the
 * file says exactly which bytes the host runs; a line that is not is refused with its number,
 * and the whole file with it (half a deploy is worse than none).
 * @example await readChannelsFile('/etc/bot/channels.txt') // [{ name: 'bot-channel-x', version: '1.2.0', integrity: 'sha512-…' }]
 */
export async function readChannelsFile(file: string): Promise<DeclaredPackage[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new AppError('BOT_ERR_CHANNELS_FILE_INVALID', `BOT_CHANNELS_FILE (${file}) cannot be read: ${(error as Error).message}`);
  }
  return parseChannelsFile(text, file);
}

export function parseChannelsFile(text: string, file = 'BOT_CHANNELS_FILE'): DeclaredPackage[] {
  const declared = new Map<string, DeclaredPackage>();
  for (const [index, raw] of text.split('\n').entries()) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const where = `${file}, line ${index + 1}`;
    const match = LINE.exec(line)?.groups;
    if (!match) throw new AppError('BOT_ERR_CHANNELS_FILE_INVALID', `${where}: expected name@version#sha512-…`);
    const { name, version, integrity } = match as { name: string; version: string; integrity: string };
    try {
      checkChannelPackageName(name);
    } catch {
      throw new AppError('BOT_ERR_CHANNELS_FILE_INVALID', `${where}: "${name}" is not a channel package name (bot-channel-*)`);
    }
    if (semver.valid(version) !== version) throw new AppError('BOT_ERR_CHANNELS_FILE_INVALID', `${where}: "${version}" is not an exact version`);
    if (declared.has(name)) throw new AppError('BOT_ERR_CHANNELS_FILE_INVALID', `${where}: ${name} is declared twice`);
    declared.set(name, { name, version, integrity });
  }
  return [...declared.values()];
}
