/** Package tarballs for tests: packed from fixture folders, or written header by header. */
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { buffer } from 'node:stream/consumers';
import { gzipSync } from 'node:zlib';
import { create, Header, type HeaderData } from 'tar';

/** Packs every file of `folder` under `package/`, gzip-compressed, as `npm pack` lays it out. */
export async function packFolder(folder: string): Promise<Buffer> {
  const files = (await readdir(folder, { recursive: true, withFileTypes: true }))
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(folder, path.join(entry.parentPath, entry.name)))
    .sort();
  return buffer(create({ gzip: true, portable: true, prefix: 'package', cwd: folder }, files));
}

/** One entry of a hand-made tarball; `size` may claim more than `data` holds. */
export interface RawEntry {
  path: string;
  type?: NonNullable<HeaderData['type']>;
  data?: string | Buffer;
  mode?: number;
  linkpath?: string;
  size?: number;
}

/**
 * A tarball written header by header, so it can hold what `tar.c` would never write: `..`,
 * absolute paths, links, devices, lying sizes.
 */
export function tarballOf(entries: RawEntry[], options: { gzip?: boolean } = {}): Buffer {
  const blocks = entries.flatMap((entry) => {
    const data = Buffer.from(entry.data ?? '');
    const header = new Header({
      path: entry.path,
      type: entry.type ?? 'File',
      mode: entry.mode ?? 0o644,
      size: entry.size ?? data.length,
      linkpath: entry.linkpath,
      mtime: new Date(0),
      uid: 0,
      gid: 0,
      devmaj: 1,
      devmin: 3,
    });
    header.encode();
    return [header.block!, data, Buffer.alloc((512 - (data.length % 512)) % 512)];
  });
  const archive = Buffer.concat([...blocks, Buffer.alloc(1024)]);
  return options.gzip === false ? archive : gzipSync(archive);
}

/** A package.json entry for a hand-made tarball. */
export function packageJsonEntry(manifest: Record<string, unknown>): RawEntry {
  return { path: 'package/package.json', data: JSON.stringify(manifest) };
}

/** A plain (non-channel) package, `package/package.json` and `files` ({ 'index.js': '…' }), as a dependency is published. */
export function libraryTarball(manifest: Record<string, unknown>, files: Record<string, string> = {}): Buffer {
  return tarballOf([packageJsonEntry(manifest), ...Object.entries(files).map(([file, data]) => ({ path: `package/${file}`, data }))]);
}
