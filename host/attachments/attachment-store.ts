import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { lstat, mkdir, open, readdir, rename, unlink, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { isUuid } from '../db/fetch-sorted-page.ts';
import { AppError } from '../errors/app-error.ts';
import { checkAttachmentName, isAttachmentName } from './attachment-name.ts';

/** An attachment opened for reading; the file closes when the stream ends or is destroyed. */
export interface OpenedAttachment {
  size: number;
  stream: Readable;
}

/** A stored file as a listing sees it. */
export interface StoredFile {
  name: string;
  size: number;
  modifiedAt: Date;
}

/**
 * Attachment files under `<dir>/<sourceId>/<name>` (dir: `<BOT_DATA_DIR>/attachments`). Names are
 * checked strictly (see attachmentNameProblem) and source ids must be UUIDs, so a path can never
 * leave its source's folder; writes go to a temporary file renamed into place, so a reader sees
 * the old file or the whole new one, never a part.
 */
export class AttachmentStore {
  readonly #dir: string;

  constructor(dir: string) {
    this.#dir = path.resolve(dir);
  }

  /** Stores (or replaces) a file; refuses a bad name with 422 BOT_ERR_ATTACHMENT_NAME_INVALID. */
  async save(sourceId: string, name: string, data: Uint8Array | string): Promise<void> {
    const file = this.#pathOf(sourceId, checkAttachmentName(name));
    const folder = path.dirname(file);
    await mkdir(folder, { recursive: true, mode: 0o700 });
    // A leading dot: no valid attachment name can ever be this temporary file.
    const temporary = path.join(folder, `.upload-${randomBytes(12).toString('hex')}`);
    let handle: FileHandle | undefined;
    try {
      handle = await open(temporary, 'wx', 0o600);
      await handle.writeFile(data);
      await handle.sync();
      await handle.close();
      handle = undefined;
      await rename(temporary, file);
    } catch (error) {
      await handle?.close().catch(() => {});
      await unlink(temporary).catch(() => {});
      throw error;
    }
  }

  /**
   * Whether a regular file of that name is stored (a symbolic link is not one): an inbound file
   * a later attempt of its event finds here is not downloaded again.
   * @example if (!(await store.has(sourceId, name))) await store.save(sourceId, name, bytes);
   */
  async has(sourceId: string, name: string): Promise<boolean> {
    if (!isAttachmentName(name) || !isUuid(sourceId)) return false;
    try {
      return (await lstat(this.#pathOf(sourceId, name))).isFile();
    } catch (error) {
      if (['ENOENT', 'ENOTDIR'].includes((error as NodeJS.ErrnoException).code ?? '')) return false;
      throw error;
    }
  }

  /**
   * The stored file, or undefined when there is none (or the name or source id could not name
   * one). A symbolic link is never followed and only a regular file is served.
   */
  async open(sourceId: string, name: string): Promise<OpenedAttachment | undefined> {
    if (!isAttachmentName(name) || !isUuid(sourceId)) return undefined;
    let handle: FileHandle;
    try {
      handle = await open(this.#pathOf(sourceId, name), constants.O_RDONLY | constants.O_NOFOLLOW);
    } catch (error) {
      if (['ENOENT', 'ELOOP', 'ENOTDIR', 'EISDIR'].includes((error as NodeJS.ErrnoException).code ?? '')) return undefined;
      throw error;
    }
    try {
      const stats = await handle.stat();
      if (!stats.isFile()) {
        await handle.close();
        return undefined;
      }
      return { size: stats.size, stream: handle.createReadStream({ autoClose: true }) };
    } catch (error) {
      await handle.close().catch(() => {});
      throw error;
    }
  }

  /** The ids of the sources that have a folder here (only folders named by a UUID). */
  async sources(): Promise<string[]> {
    const entries = await readdir(this.#dir, { withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return [];
      throw error;
    });
    return entries.filter((entry) => entry.isDirectory() && isUuid(entry.name)).map((entry) => entry.name);
  }

  /**
   * The regular files of a source whose names `select` takes (every valid name by default), with
   * their sizes and modification times; none when the source has no folder. Temporary files of
   * writes in progress, symbolic links and anything else are left out, as is a file gone between
   * the listing and its look.
   */
  async files(sourceId: string, select: (name: string) => boolean = () => true): Promise<StoredFile[]> {
    const folder = this.#folderOf(sourceId);
    let names: string[];
    try {
      names = await readdir(folder);
    } catch (error) {
      if (['ENOENT', 'ENOTDIR'].includes((error as NodeJS.ErrnoException).code ?? '')) return [];
      throw error;
    }
    const files: StoredFile[] = [];
    for (const name of names) {
      if (!isAttachmentName(name) || !select(name)) continue;
      const stats = await lstat(path.join(folder, name)).catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return undefined;
        throw error;
      });
      if (stats?.isFile()) files.push({ name, size: stats.size, modifiedAt: stats.mtime });
    }
    return files;
  }

  /** Deletes a stored file; false when there was none (another instance may have just deleted it). */
  async remove(sourceId: string, name: string): Promise<boolean> {
    try {
      await unlink(this.#pathOf(sourceId, checkAttachmentName(name)));
      return true;
    } catch (error) {
      if (['ENOENT', 'ENOTDIR'].includes((error as NodeJS.ErrnoException).code ?? '')) return false;
      throw error;
    }
  }

  #folderOf(sourceId: string): string {
    if (!isUuid(sourceId)) throw new AppError('BOT_ERR_SOURCE_NOT_FOUND', 'No source has this id');
    return path.join(this.#dir, sourceId);
  }

  #pathOf(sourceId: string, name: string): string {
    const folder = this.#folderOf(sourceId);
    const file = path.join(folder, name);
    // Belt and braces: the checks above already make this impossible.
    if (path.dirname(file) !== folder) throw new AppError('BOT_ERR_ATTACHMENT_NAME_INVALID', 'The attachment name is not a plain file name');
    return file;
  }
}
