import type { Logger } from 'pino';
import type { AttachmentStore } from './attachment-store.ts';
import { isInboundAttachmentName } from './inbound-attachment-name.ts';
import type { InboundFileQuota } from './inbound-file-quota.ts';

export interface InboundFileSweeperOptions {
  store: Pick<AttachmentStore, 'sources' | 'files' | 'remove'>;
  quota: Pick<InboundFileQuota, 'mark' | 'recount' | 'removed'>;
  /** BOT_INBOUND_FILES_RETENTION_DAYS: an inbound file last written longer ago than this is deleted. */
  retentionMs: number;
  /** Time between the end of one sweep and the start of the next (BOT_MEMORY_SWEEP_INTERVAL_MS). */
  intervalMs: number;
  now: () => Date;
  logger: Pick<Logger, 'info' | 'error'>;
}

export interface InboundSweepResult {
  /** Inbound files deleted by this sweep. */
  deleted: number;
  freedBytes: number;
  /** Source folders looked through to their end. */
  sources: number;
}

/**
 * Deletes the files subscribers sent once they are older than the retention, on a timer like the
 * TTL sweeps (TtlSweeper), and recounts each source's inbound bytes for its quota on the way
 * (see InboundFileQuota). Only files named as the intake names them (isInboundAttachmentName)
 * are looked at: files an operator or a workflow put in the store stay, whatever their age. A
 * file's age is its modification time: when the intake stored it.
 *
 * Unlike the TTL sweeps, every instance sweeps, under no lock: each instance's
 * `BOT_DATA_DIR/attachments` may be its own folder, which no other instance would sweep, and each
 * instance's quota counts need the recount. On a shared folder two instances deleting the same
 * file is harmless (the second finds it gone), and a listing costs one `lstat` per inbound file.
 * @example const sweeper = new InboundFileSweeper({ store, quota, retentionMs, intervalMs, now, logger }); sweeper.start();
 */
export class InboundFileSweeper {
  readonly #options: InboundFileSweeperOptions;
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<InboundSweepResult> | undefined;
  #closed = false;

  constructor(options: InboundFileSweeperOptions) {
    for (const name of ['intervalMs', 'retentionMs'] as const) {
      if (!Number.isInteger(options[name]) || options[name] <= 0) throw new TypeError(`InboundFileSweeper: ${name} must be a positive integer`);
    }
    this.#options = options;
  }

  /** Schedules sweeps every `intervalMs`; a sweep never overlaps the previous one. */
  start(): void {
    if (this.#closed || this.#timer) return;
    this.#schedule();
  }

  /** Stops the timer, cuts a running sweep short after its current file, and waits for it. */
  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    await this.#running?.catch(() => undefined);
  }

  /** Runs one sweep now; a call while this instance is sweeping shares that sweep. */
  sweepOnce(): Promise<InboundSweepResult> {
    this.#running ??= this.#sweep().finally(() => (this.#running = undefined));
    return this.#running;
  }

  #schedule(): void {
    this.#timer = setTimeout(() => void this.#tick(), this.#options.intervalMs);
    this.#timer.unref();
  }

  async #tick(): Promise<void> {
    try {
      const result = await this.sweepOnce();
      if (result.deleted > 0) this.#options.logger.info(result, 'swept old inbound files');
    } catch (error) {
      this.#options.logger.error({ err: error }, 'sweeping old inbound files failed');
    }
    if (!this.#closed) this.#schedule();
  }

  async #sweep(): Promise<InboundSweepResult> {
    const { store, logger } = this.#options;
    const result: InboundSweepResult = { deleted: 0, freedBytes: 0, sources: 0 };
    for (const sourceId of await store.sources()) {
      if (this.#closed) break;
      try {
        if (await this.#sweepSource(sourceId, result)) result.sources += 1;
      } catch (error) {
        // One source's folder failing (its permissions, a file system error) must not stop the others.
        logger.error({ err: error, sourceId }, 'sweeping the inbound files of a source failed');
      }
    }
    return result;
  }

  /** One source's folder: its old inbound files deleted, its count of the others given to the quota; false when cut short. */
  async #sweepSource(sourceId: string, result: InboundSweepResult): Promise<boolean> {
    const { store, quota, retentionMs, now } = this.#options;
    const mark = quota.mark(sourceId);
    const cutoff = now().getTime() - retentionMs;
    let kept = 0;
    for (const file of await store.files(sourceId, isInboundAttachmentName)) {
      if (this.#closed) return false;
      if (file.modifiedAt.getTime() > cutoff) {
        kept += file.size;
      } else if (await store.remove(sourceId, file.name)) {
        result.deleted += 1;
        result.freedBytes += file.size;
        quota.removed(sourceId, file.size);
      }
    }
    if (mark) quota.recount(sourceId, kept, mark);
    return true;
  }
}
