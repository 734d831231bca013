import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { PgListener } from './pg-listener.ts';

/** Told of every write to a cached row, so that copies of it can be dropped. */
export interface ChangeListener {
  /** Runs inside the write's transaction, with the row's cache key: it commits with the write or not at all. */
  changing(trx: Knex.Transaction, key: string): Promise<void>;
  /** Runs once the write has committed, before the writer hears back. */
  changed(key: string): void;
}

/** What a cache must offer to be kept in step. */
export interface ForgettingCache {
  forget(key: string): void;
  clear(): void;
}

export interface ChangeNoticeSyncOptions {
  db: Knex;
  cache: ForgettingCache;
  /** This instance's id: its own notices are skipped. */
  instanceId: string;
  logger: Logger;
  /** First wait before reconnecting a lost listener; doubles up to `maxReconnectDelayMs`. */
  reconnectDelayMs?: number;
  maxReconnectDelayMs?: number;
}

/** What one kind of cached row is told by. */
export interface ChangeNoticeKind {
  /** The Postgres notification channel on which host instances tell each other of these writes. */
  channel: string;
  /** What changed, in log lines ("source change"). */
  label: string;
  /** The notice's field holding the cache key ({ ref, from } for sources): instances of other versions read it too. */
  keyField: string;
}

/**
 * Keeps every instance's cache of one kind of row in step with its table: each write sends a
 * NOTIFY in its own transaction (delivered only if it commits) and, once committed, drops this
 * instance's copy at once; a notice from another instance drops the copy here. The listener
 * (PgListener) re-opens a lost connection with backoff; since notices sent meanwhile are gone,
 * the cache is emptied on loss and again on reconnect.
 * @example
 * const sync = new ChangeNoticeSync({ channel: 'bot_thing_changes', label: 'thing change', keyField: 'id' }, { db, cache, instanceId, logger });
 * await writeAndNotify(db, sync, (trx) => trx('things').where({ id }).update(patch), () => id);
 * await sync.start(); // other instances' writes reach `cache` from now on
 */
export class ChangeNoticeSync implements ChangeListener {
  readonly #kind: ChangeNoticeKind;
  readonly #options: ChangeNoticeSyncOptions;
  readonly #listener: PgListener;

  constructor(kind: ChangeNoticeKind, options: ChangeNoticeSyncOptions) {
    this.#kind = kind;
    this.#options = options;
    // Notices sent while the connection is down are gone: no copy can be trusted then.
    const forgetAll = () => options.cache.clear();
    this.#listener = new PgListener({
      db: options.db,
      channel: kind.channel,
      label: kind.label,
      logger: options.logger,
      onNotice: (payload) => this.#onNotice(payload),
      onLost: forgetAll,
      onReconnected: forgetAll,
      ...(options.reconnectDelayMs === undefined ? {} : { reconnectDelayMs: options.reconnectDelayMs }),
      ...(options.maxReconnectDelayMs === undefined ? {} : { maxReconnectDelayMs: options.maxReconnectDelayMs }),
    });
  }

  async changing(trx: Knex.Transaction, key: string): Promise<void> {
    const notice = { [this.#kind.keyField]: key, from: this.#options.instanceId };
    await trx.raw('SELECT pg_notify(?, ?)', [this.#kind.channel, JSON.stringify(notice)]);
  }

  changed(key: string): void {
    this.#options.cache.forget(key);
  }

  /** Resolves once listening; a failure here is the caller's (the database is down at start). */
  start(): Promise<void> {
    return this.#listener.start();
  }

  close(): Promise<void> {
    return this.#listener.close();
  }

  #onNotice(payload: string | undefined): void {
    let notice: Record<string, unknown>;
    try {
      notice = JSON.parse(payload ?? '') as Record<string, unknown>;
    } catch {
      // Which row changed is unknown: none of the copies can be trusted.
      this.#options.cache.clear();
      return this.#options.logger.warn({ payload }, `unreadable ${this.#kind.label} notice; cache emptied`);
    }
    const key = notice[this.#kind.keyField];
    if (notice.from !== this.#options.instanceId && typeof key === 'string') this.#options.cache.forget(key);
  }
}

/**
 * A write and its change notice in one transaction, so other instances hear of exactly the writes
 * that committed; once committed, and before the caller hears back, this instance's copy goes, so
 * its next read sees the new row. `keyOf` names the row written (undefined: nothing was).
 */
export async function writeAndNotify<T>(db: Knex, changes: ChangeListener | undefined, write: (trx: Knex.Transaction) => Promise<T>, keyOf: (written: T) => string | undefined): Promise<T> {
  let key: string | undefined;
  const written = await db.transaction(async (trx) => {
    const result = await write(trx);
    key = keyOf(result);
    if (key !== undefined) await changes?.changing(trx, key);
    return result;
  });
  if (key !== undefined) changes?.changed(key);
  return written;
}
