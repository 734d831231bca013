import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';

/** A plugin with more files than this beside its channel file is fingerprinted by the first ones. */
const MAX_FILES = 2_000;

/**
 * Identifies the code of a channel as it is on disk: a hash over every file in the channel
 * file's folder (its built package or local folder, without nested node_modules). A rescan
 * keeps the running pool of a channel whose fingerprint did not change and replaces the others,
 * so a rebuilt local channel is picked up even though it has no version number.
 */
export async function channelFingerprint(realFile: string): Promise<string> {
  const dir = path.dirname(realFile);
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const files = entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name))
    .filter((file) => !path.relative(dir, file).split(path.sep).includes('node_modules'))
    .sort()
    .slice(0, MAX_FILES);
  const hash = createHash('sha256');
  for (const file of files) {
    hash.update(path.relative(dir, file)).update('\0').update(await readFile(file)).update('\0');
  }
  return hash.digest('hex');
}
