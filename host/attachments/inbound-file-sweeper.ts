import type { Logger } from 'pino';
import { PeriodicRun } from '../timers/periodic-run.ts';
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
  readonly #timer: PeriodicRun<InboundSweepResult>;

  constructor(options: InboundFileSweeperOptions) {
    if (!Number.isInteger(options.retentionMs) || options.retentionMs <= 0) throw new TypeError('InboundFileSweeper: retentionMs must be a positive integer');
    this.#options = options;
    this.#timer = new PeriodicRun({ intervalMs: options.intervalMs, name: 'old inbound files', run: () => this.#sweep(), worthLogging: (result) => result.deleted > 0, logger: options.logger });
  }

  /** Schedules sweeps every `intervalMs`; a sweep never overlaps the previous one. */
  start(): void {
    this.#timer.start();
  }

  /** Stops the timer, cuts a running sweep short after its current file, and waits for it. */
  close(): Promise<void> {
    return this.#timer.close();
  }

  /** Runs one sweep now; a call while this instance is sweeping shares that sweep. */
  sweepOnce(): Promise<InboundSweepResult> {
    return this.#timer.runOnce();
  }

  async #sweep(): Promise<InboundSweepResult> {
    const { store, logger } = this.#options;
    const result: InboundSweepResult = { deleted: 0, freedBytes: 0, sources: 0 };
    for (const sourceId of await store.sources()) {
      if (this.#timer.closed) break;
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
      if (this.#timer.closed) return false;
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
