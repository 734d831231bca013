import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { PgListener } from '../db/pg-listener.ts';
import type { SourceCache } from './source-cache.ts';
import type { SourceChangeListener } from './source-store.ts';

/** The Postgres notification channel on which host instances tell each other of source writes. */
export const SOURCE_CHANGES = 'bot_source_changes';

/** One committed write to a source, as the other instances hear of it. */
export interface SourceChangeNotice {
  ref: string;
  /** The instance that wrote it, which has dropped its own copy already. */
  from: string;
}

export interface SourceCacheSyncOptions {
  db: Knex;
  cache: Pick<SourceCache, 'forget' | 'clear'>;
  /** This instance's id: its own notices are skipped. */
  instanceId: string;
  logger: Logger;
  /** First wait before reconnecting a lost listener; doubles up to `maxReconnectDelayMs`. */
  reconnectDelayMs?: number;
  maxReconnectDelayMs?: number;
}

/**
 * Keeps every instance's SourceCache in step with the sources table, the way ChannelSync keeps
 * channels: each write through the SourceStore sends a NOTIFY in its own transaction (delivered
 * only if it commits) and, once committed, drops this instance's copy at once; a notice from
 * another instance drops the copy here. The listener (PgListener) re-opens a lost connection with
 * backoff; since notices sent meanwhile are gone, the cache is emptied on loss and again on
 * reconnect.
 * @example
 * const sync = new SourceCacheSync({ db, cache, instanceId, logger });
 * const sources = new SourceStore(db, channels, now, sync);
 * await sync.start(); // other instances' writes reach `cache` from now on
 */
export class SourceCacheSync implements SourceChangeListener {
  readonly #options: SourceCacheSyncOptions;
  readonly #listener: PgListener;

  constructor(options: SourceCacheSyncOptions) {
    this.#options = options;
    // Notices sent while the connection is down are gone: no copy can be trusted then.
    const forgetAll = () => options.cache.clear();
    this.#listener = new PgListener({
      db: options.db,
      channel: SOURCE_CHANGES,
      label: 'source change',
      logger: options.logger,
      onNotice: (payload) => this.#onNotice(payload),
      onLost: forgetAll,
      onReconnected: forgetAll,
      ...(options.reconnectDelayMs === undefined ? {} : { reconnectDelayMs: options.reconnectDelayMs }),
      ...(options.maxReconnectDelayMs === undefined ? {} : { maxReconnectDelayMs: options.maxReconnectDelayMs }),
    });
  }

  async changing(trx: Knex.Transaction, ref: string): Promise<void> {
    const notice: SourceChangeNotice = { ref, from: this.#options.instanceId };
    await trx.raw('SELECT pg_notify(?, ?)', [SOURCE_CHANGES, JSON.stringify(notice)]);
  }

  changed(ref: string): void {
    this.#options.cache.forget(ref);
  }

  /** Resolves once listening; a failure here is the caller's (the database is down at start). */
  start(): Promise<void> {
    return this.#listener.start();
  }

  close(): Promise<void> {
    return this.#listener.close();
  }

  #onNotice(payload: string | undefined): void {
    let notice: SourceChangeNotice;
    try {
      notice = JSON.parse(payload ?? '') as SourceChangeNotice;
    } catch {
      // Which source changed is unknown: none of the copies can be trusted.
      this.#options.cache.clear();
      return this.#options.logger.warn({ payload }, 'unreadable source change notice; source cache emptied');
    }
    if (notice.from !== this.#options.instanceId && typeof notice.ref === 'string') this.#options.cache.forget(notice.ref);
  }
}
