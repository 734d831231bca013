import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type pg from 'pg';
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
 * another instance drops the copy here. The listener has a connection of its own, re-opened with
 * backoff when lost; since notices sent meanwhile are gone, the cache is emptied on loss and again
 * on reconnect.
 * @example
 * const sync = new SourceCacheSync({ db, cache, instanceId, logger });
 * const sources = new SourceStore(db, channels, now, sync);
 * await sync.start(); // other instances' writes reach `cache` from now on
 */
export class SourceCacheSync implements SourceChangeListener {
  readonly #options: SourceCacheSyncOptions;
  #client: pg.Client | undefined;
  #reconnectTimer: NodeJS.Timeout | undefined;
  #delayMs: number;
  #stopped = false;

  constructor(options: SourceCacheSyncOptions) {
    this.#options = options;
    this.#delayMs = options.reconnectDelayMs ?? 500;
  }

  async changing(trx: Knex.Transaction, ref: string): Promise<void> {
    const notice: SourceChangeNotice = { ref, from: this.#options.instanceId };
    await trx.raw('SELECT pg_notify(?, ?)', [SOURCE_CHANGES, JSON.stringify(notice)]);
  }

  changed(ref: string): void {
    this.#options.cache.forget(ref);
  }

  /** Resolves once listening; a failure here is the caller's (the database is down at start). */
  async start(): Promise<void> {
    await this.#listen();
  }

  async close(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#reconnectTimer);
    const client = this.#client;
    this.#client = undefined;
    if (client) await this.#options.db.client.destroyRawConnection(client);
  }

  async #listen(): Promise<void> {
    const client: pg.Client = await this.#options.db.client.acquireRawConnection();
    if (this.#stopped) return void (await this.#options.db.client.destroyRawConnection(client));
    client.on('notification', (message) => {
      if (message.channel === SOURCE_CHANGES) this.#onNotice(message.payload);
    });
    client.on('error', (error) => this.#lost(client, error));
    client.on('end', () => this.#lost(client));
    try {
      await client.query(`LISTEN ${SOURCE_CHANGES}`);
    } catch (error) {
      await this.#options.db.client.destroyRawConnection(client).catch(() => undefined);
      throw error;
    }
    this.#client = client;
    this.#delayMs = this.#options.reconnectDelayMs ?? 500;
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

  #lost(client: pg.Client, error?: Error): void {
    if (this.#client !== client || this.#stopped) return;
    this.#client = undefined;
    client.removeAllListeners('notification');
    this.#options.cache.clear();
    this.#options.logger.warn({ err: error }, 'source change listener lost its connection; reconnecting');
    void this.#options.db.client.destroyRawConnection(client).catch(() => undefined);
    this.#scheduleReconnect();
  }

  #scheduleReconnect(): void {
    if (this.#stopped) return;
    this.#reconnectTimer = setTimeout(() => {
      this.#listen().then(
        () => {
          this.#options.cache.clear();
          this.#options.logger.info('source change listener reconnected');
        },
        (error: unknown) => {
          this.#options.logger.warn({ err: error }, 'source change listener could not reconnect yet');
          this.#delayMs = Math.min(this.#delayMs * 2, this.#options.maxReconnectDelayMs ?? 30_000);
          this.#scheduleReconnect();
        },
      );
    }, this.#delayMs);
    this.#reconnectTimer.unref();
  }
}
