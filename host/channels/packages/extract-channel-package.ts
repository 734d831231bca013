import { chmod, lstat, mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { AppError } from '../../errors/app-error.ts';
import { readChannelTarball, type TarballEntry, type TarballLimits } from './read-channel-tarball.ts';

/** Files are data for the runner to read: never executable, setuid or writable by others. */
const FILE_MODE = 0o644;
const DIRECTORY_MODE = 0o755;

/**
 * Unpacks a package tarball's `package/` folder into `destination`, which must not exist. Every
 * entry is checked before anything is written (see {@link readChannelTarball}: entries outside
 * `package/`, absolute or `..` paths, links, devices, FIFOs, oversized or too many entries are
 * refused with a `BOT_ERR_CHANNEL_PACKAGE_*` code). Files get mode 0644 and folders 0755 whatever
 * the tarball says, regardless of the umask. The files land in a fresh folder beside
 * `destination`, renamed into place at the end, so `destination` holds the whole package or
 * nothing. Runs none of the package's scripts.
 * @example await extractChannelPackage(fetched.tarball, '/srv/bot/channel-packages/bot-channel-telegram/2.1.0')
 */
export async function extractChannelPackage(tarball: Buffer, destination: string, limits?: Partial<TarballLimits>): Promise<void> {
  const target = path.resolve(destination);
  await checkAbsent(target);
  const entries = await readChannelTarball(tarball, limits);
  await mkdir(path.dirname(target), { recursive: true, mode: DIRECTORY_MODE });
  const staging = await mkdtemp(path.join(path.dirname(target), `.${path.basename(target)}.unpacking-`));
  try {
    await chmod(staging, DIRECTORY_MODE);
    await writeEntries(staging, entries);
    await rename(staging, target);
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    if (isCode(error, 'EEXIST') || isCode(error, 'ENOTEMPTY')) throw exists(target);
    throw error;
  }
}

async function checkAbsent(target: string): Promise<void> {
  try {
    await lstat(target);
  } catch (error) {
    if (isCode(error, 'ENOENT')) return;
    throw error;
  }
  throw exists(target);
}

/** Folders come first, parents before children (sorted paths), so files find theirs. */
async function writeEntries(root: string, entries: TarballEntry[]): Promise<void> {
  for (const entry of entries) {
    const target = inside(root, entry.path);
    if (entry.kind === 'directory') {
      await mkdir(target, { mode: DIRECTORY_MODE });
      await chmod(target, DIRECTORY_MODE);
    } else {
      // 'wx' creates the file and never follows or replaces anything already there.
      await writeFile(target, entry.data, { flag: 'wx', mode: FILE_MODE });
      await chmod(target, FILE_MODE);
    }
  }
}

/** The entry rules already keep paths inside; this says so once more where the write happens. */
function inside(root: string, relative: string): string {
  const target = path.resolve(root, relative);
  const fromRoot = path.relative(root, target);
  if (fromRoot === '' || fromRoot === '..' || fromRoot.startsWith(`..${path.sep}`) || path.isAbsolute(fromRoot)) {
    throw new AppError('BOT_ERR_CHANNEL_PACKAGE_ENTRY_REFUSED', `The tarball entry "package/${relative}" lies outside the package folder`);
  }
  return target;
}

function exists(target: string): AppError {
  return new AppError('BOT_ERR_CHANNEL_PACKAGE_DESTINATION_EXISTS', `${target} already exists; a package is unpacked only into a new folder`);
}

function isCode(error: unknown, code: string): boolean {
  return (error as { code?: string } | null)?.code === code;
}
