import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import { Header, Parser, type ReadEntry } from 'tar';
import { AppError } from '../../errors/app-error.ts';

/** Bounds on what a package tarball may unpack to. */
export interface TarballLimits {
  /** Largest single file, in bytes. */
  maxEntryBytes: number;
  /** Largest sum of all files, in bytes. */
  maxTotalBytes: number;
  /** Most entries (files and folders). */
  maxEntries: number;
}

/** Generous for a channel package (a few hundred kilobytes of JavaScript) and bounded for the host. */
export const DEFAULT_TARBALL_LIMITS: Readonly<TarballLimits> = Object.freeze({
  maxEntryBytes: 16 * 1024 * 1024,
  maxTotalBytes: 64 * 1024 * 1024,
  maxEntries: 5_000,
});

/** One accepted entry, its path relative to the package's root (`package/` stripped). */
export type TarballEntry = { kind: 'directory'; path: string } | { kind: 'file'; path: string; data: Buffer };

const ROOT = 'package';
/** Per entry, a header, perhaps a PAX header, and padding; plus the end-of-archive record. */
const TAR_OVERHEAD_PER_ENTRY = 2048;
const TAR_END_RECORD = 10_240;
const GZIP_MAGIC = [0x1f, 0x8b];

const gunzipAsync = promisify(gunzip);

/**
 * Reads a package tarball (gzip-compressed or plain tar) into memory, entry by entry, refusing
 * before anything is written: entries outside `package/`, with an absolute path, `..` or an
 * empty segment; links, devices, FIFOs and any type other than file or folder; duplicates; and
 * anything past `limits`. Decompression is bounded too, so a small tarball cannot expand
 * without end. Nothing of the package runs.
 * @example const entries = await readChannelTarball(tarball) // [{ kind: 'file', path: 'package.json', data }]
 */
export async function readChannelTarball(tarball: Buffer, limits: Partial<TarballLimits> = {}): Promise<TarballEntry[]> {
  const bounds = { ...DEFAULT_TARBALL_LIMITS, ...limits };
  const archive = await decompress(tarball, bounds.maxTotalBytes + (bounds.maxEntries + 1) * TAR_OVERHEAD_PER_ENTRY + TAR_END_RECORD);
  checkStartsWithHeader(archive);
  return parseEntries(archive, bounds);
}

async function decompress(tarball: Buffer, maxOutputLength: number): Promise<Buffer> {
  const gzipped = tarball[0] === GZIP_MAGIC[0] && tarball[1] === GZIP_MAGIC[1];
  if (!gzipped) {
    if (tarball.length > maxOutputLength) throw tooLarge(`The archive holds more than ${maxOutputLength} bytes`);
    return tarball;
  }
  try {
    return await gunzipAsync(tarball, { maxOutputLength });
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw tooLarge(`The tarball expands to more than ${maxOutputLength} bytes`);
    throw invalid('The tarball is not valid gzip', error);
  }
}

/**
 * The tar parser decompresses whatever looks compressed; our gunzip is the only one, bounded, so
 * what reaches the parser must already be a tar header.
 */
function checkStartsWithHeader(archive: Buffer): void {
  const looksCompressed = archive[0] === GZIP_MAGIC[0] && archive[1] === GZIP_MAGIC[1];
  if (archive.length < 512 || looksCompressed || !isHeader(archive.subarray(0, 512))) {
    throw invalid('The tarball is not a tar archive');
  }
}

function isHeader(block: Buffer): boolean {
  try {
    return new Header(block).cksumValid;
  } catch {
    return false;
  }
}

function parseEntries(archive: Buffer, limits: TarballLimits): Promise<TarballEntry[]> {
  return new Promise((resolve, reject) => {
    const collector = new EntryCollector(limits);
    let refusal: unknown;
    const parser = new Parser({ strict: true, zstd: false });
    const refuse = (error: unknown) => {
      refusal ??= error;
      parser.abort(new Error('entry refused'));
    };
    parser.on('entry', (entry: ReadEntry) => {
      try {
        collector.accept(entry);
      } catch (error) {
        refuse(error);
      }
    });
    parser.on('ignoredEntry', (entry: ReadEntry) => refuse(refused(entry.path, `is of type ${entry.type}, which is not unpacked`)));
    parser.on('error', (error: Error) => reject(refusal ?? invalid('The tar archive is corrupt', error)));
    parser.on('end', () => (refusal ? reject(refusal) : resolve(collector.entries())));
    parser.end(archive);
  });
}

/** Applies the entry rules as the parser reads, and keeps what it accepts. */
class EntryCollector {
  readonly #limits: TarballLimits;
  readonly #files = new Map<string, Buffer[]>();
  readonly #directories = new Set<string>();
  #count = 0;
  #totalBytes = 0;

  constructor(limits: TarballLimits) {
    this.#limits = limits;
  }

  accept(entry: ReadEntry): void {
    if (++this.#count > this.#limits.maxEntries) throw tooLarge(`The tarball holds more than ${this.#limits.maxEntries} entries`);
    const relative = relativePathOf(entry.path);
    if (entry.type === 'Directory') {
      this.#directories.add(relative);
      entry.resume();
      return;
    }
    if (entry.type !== 'File' && entry.type !== 'OldFile' && entry.type !== 'ContiguousFile') {
      throw refused(entry.path, `is a ${describeType(entry.type)}, which is not unpacked`);
    }
    this.#acceptFile(entry, relative);
  }

  #acceptFile(entry: ReadEntry, relative: string): void {
    if (relative === '') throw refused(entry.path, 'is a file in place of the package folder');
    if (this.#files.has(relative)) throw refused(entry.path, 'appears twice');
    if (entry.size > this.#limits.maxEntryBytes) throw tooLarge(`The tarball entry ${quote(entry.path)} holds ${entry.size} bytes, more than ${this.#limits.maxEntryBytes}`);
    this.#totalBytes += entry.size;
    if (this.#totalBytes > this.#limits.maxTotalBytes) throw tooLarge(`The files hold more than ${this.#limits.maxTotalBytes} bytes`);
    const chunks: Buffer[] = [];
    this.#files.set(relative, chunks);
    entry.on('data', (chunk: Buffer) => chunks.push(chunk));
  }

  entries(): TarballEntry[] {
    const directories = new Set([...this.#directories, ...[...this.#files.keys()].flatMap(parentsOf)]);
    directories.delete('');
    const clash = [...this.#files.keys()].find((file) => directories.has(file));
    if (clash !== undefined) throw refused(`${ROOT}/${clash}`, 'is both a file and a folder');
    return [
      ...[...directories].sort().map((path): TarballEntry => ({ kind: 'directory', path })),
      ...[...this.#files].map(([path, chunks]): TarballEntry => ({ kind: 'file', path, data: Buffer.concat(chunks) })),
    ];
  }
}

/** The entry's path below `package/`, '' for the folder itself; refused when it could lead elsewhere. */
function relativePathOf(entryPath: string): string {
  if (entryPath === ROOT || entryPath === `${ROOT}/`) return '';
  if (!entryPath.startsWith(`${ROOT}/`)) throw refused(entryPath, `is not under ${ROOT}/`);
  const relative = entryPath.slice(ROOT.length + 1).replace(/\/$/, '');
  if (relative.startsWith('/')) throw refused(entryPath, 'is an absolute path');
  if (/[\\\0]/.test(relative)) throw refused(entryPath, 'holds a backslash or NUL');
  const segments = relative.split('/');
  if (segments.includes('..')) throw refused(entryPath, 'climbs out with ".."');
  if (segments.some((segment) => segment === '' || segment === '.')) throw refused(entryPath, 'holds an empty or "." segment');
  return relative;
}

function parentsOf(file: string): string[] {
  const segments = file.split('/');
  return segments.slice(0, -1).map((_, index) => segments.slice(0, index + 1).join('/'));
}

function describeType(type: string): string {
  const names: Record<string, string> = { SymbolicLink: 'symbolic link', Link: 'hard link', CharacterDevice: 'character device', BlockDevice: 'block device', FIFO: 'FIFO' };
  return names[type] ?? `${type} entry`;
}

function refused(entryPath: string, reason: string): AppError {
  return new AppError('BOT_ERR_CHANNEL_PACKAGE_ENTRY_REFUSED', `The tarball entry ${quote(entryPath)} ${reason}`);
}

/** An entry path in a message: one line, bounded (it comes from the tarball). */
function quote(entryPath: string): string {
  return JSON.stringify(entryPath.replace(/\p{Cc}/gu, '?').slice(0, 200));
}

function tooLarge(message: string): AppError {
  return new AppError('BOT_ERR_CHANNEL_PACKAGE_TOO_LARGE', message);
}

function invalid(message: string, cause?: unknown): AppError {
  return new AppError('BOT_ERR_CHANNEL_PACKAGE_TARBALL_INVALID', message, undefined, { cause });
}
