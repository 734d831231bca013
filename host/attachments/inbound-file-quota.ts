import type { AttachmentStore } from './attachment-store.ts';
import { isInboundAttachmentName } from './inbound-attachment-name.ts';

/** How the quota learns what a source's inbound files take on disk: the sum of their sizes, read from its folder. */
export type CountInboundBytes = (sourceId: string) => Promise<number>;

/** The sum of the sizes of the source's inbound files in the store (one listing of its folder). */
export function inboundBytesIn(store: Pick<AttachmentStore, 'files'>): CountInboundBytes {
  return async (sourceId) => (await store.files(sourceId, isInboundAttachmentName)).reduce((sum, file) => sum + file.size, 0);
}

/** What a recount needs to know of the time its listing took: see InboundFileQuota.mark. */
export interface RecountMark {
  readonly reservedTotal: number;
  readonly pending: number;
}

interface Usage {
  /** The source's inbound bytes as this instance knows them, reservations not yet written included. */
  bytes: number;
  /** Bytes reserved and neither written nor given back yet. */
  pending: number;
  /** Bytes ever reserved (never decreases): a recount adds what was reserved while it listed the folder. */
  reservedTotal: number;
}

/**
 * The quota of the files subscribers send, per source (BOT_INBOUND_FILES_MAX_MB_PER_SOURCE): the
 * intake reserves a file's bytes before storing it and takes nothing in while a source's inbound
 * files would go past `maxBytes`. The files operators or workflows put in the store do not count.
 *
 * The bytes are counted in memory, not by listing the folder at every file (thousands of `lstat`s
 * per file, on a network volume too): each source's count is read from its folder once, when the
 * source first sends a file, then moved by this instance's own writes and deletions, and read
 * again from the folder at each retention sweep (InboundFileSweeper, every
 * BOT_MEMORY_SWEEP_INTERVAL_MS), which lists every inbound file anyway. Reserving is synchronous
 * once the count is known, so the events of one instance running at once never overshoot together.
 *
 * Several instances: each counts the folder it sees, shared or its own. Its count holds every file
 * in that folder as of its last listing, plus its own writes since, so it never misses more than
 * what the other instances took in for the source since that listing (at most one sweep interval;
 * their deletions it misses only make it refuse early, never overshoot). That is good enough for a
 * guard against filling the disk: the overshoot is bounded by what the other instances can download
 * for one source in one interval, not growing with time, and each instance still stops at the
 * quota on its own. An exact shared quota would need a counter in the database, on every file.
 * @example if (await quota.reserve(sourceId, bytes.byteLength)) { await store.save(…); quota.written(sourceId, bytes.byteLength); }
 */
export class InboundFileQuota {
  readonly maxBytes: number;
  readonly #count: CountInboundBytes;
  /** Counts known; `#loading` holds those being read from their folder. */
  readonly #usage = new Map<string, Usage>();
  readonly #loading = new Map<string, Promise<Usage>>();

  constructor({ maxBytes, count }: { maxBytes: number; count: CountInboundBytes }) {
    if (!Number.isInteger(maxBytes) || maxBytes <= 0) throw new TypeError('InboundFileQuota: maxBytes must be a positive integer');
    this.maxBytes = maxBytes;
    this.#count = count;
  }

  /** Whether the source's inbound files already fill its quota: no file needs downloading then. */
  async isFull(sourceId: string): Promise<boolean> {
    return (await this.#usageOf(sourceId)).bytes >= this.maxBytes;
  }

  /** Reserves room for `bytes` more; false, reserving nothing, when they would take the source past its quota. */
  async reserve(sourceId: string, bytes: number): Promise<boolean> {
    const usage = await this.#usageOf(sourceId);
    // From here on synchronous: no other reservation runs between the check and the addition.
    if (usage.bytes + bytes > this.maxBytes) return false;
    usage.bytes += bytes;
    usage.pending += bytes;
    usage.reservedTotal += bytes;
    return true;
  }

  /** The reserved bytes are stored. */
  written(sourceId: string, bytes: number): void {
    const usage = this.#usage.get(sourceId);
    if (usage) usage.pending -= bytes;
  }

  /** The write failed: its reservation is given back. */
  release(sourceId: string, bytes: number): void {
    const usage = this.#usage.get(sourceId);
    if (!usage) return;
    usage.pending -= bytes;
    usage.bytes = Math.max(0, usage.bytes - bytes);
  }

  /** This instance deleted an inbound file of the source. */
  removed(sourceId: string, bytes: number): void {
    const usage = this.#usage.get(sourceId);
    if (usage) usage.bytes = Math.max(0, usage.bytes - bytes);
  }

  /**
   * Taken just before listing the source's folder for a recount; undefined when this instance
   * keeps no count of the source yet (it reads the folder when the source first needs one).
   */
  mark(sourceId: string): RecountMark | undefined {
    const usage = this.#usage.get(sourceId);
    return usage && { reservedTotal: usage.reservedTotal, pending: usage.pending };
  }

  /**
   * The count from a listing of the folder begun at `mark`: what it found, plus what was reserved
   * while it listed and what was still being written when it began (a file the listing saw anyway
   * counts twice until the next recount: the safe side).
   */
  recount(sourceId: string, listedBytes: number, mark: RecountMark): void {
    const usage = this.#usage.get(sourceId);
    if (usage) usage.bytes = listedBytes + (usage.reservedTotal - mark.reservedTotal) + mark.pending;
  }

  /** The bytes this instance counts for the source (undefined before its first file). */
  bytesOf(sourceId: string): number | undefined {
    return this.#usage.get(sourceId)?.bytes;
  }

  #usageOf(sourceId: string): Promise<Usage> {
    const known = this.#usage.get(sourceId);
    if (known) return Promise.resolve(known);
    let loading = this.#loading.get(sourceId);
    if (!loading) {
      loading = this.#count(sourceId)
        .then((bytes) => {
          const usage: Usage = { bytes, pending: 0, reservedTotal: 0 };
          this.#usage.set(sourceId, usage);
          return usage;
        })
        // A failed read is not kept: the next file tries again.
        .finally(() => this.#loading.delete(sourceId));
      this.#loading.set(sourceId, loading);
    }
    return loading;
  }
}
