import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { ListenConnection, type ListenSubscriber } from './listen-connection.ts';

export interface PgListenerOptions {
  db: Knex;
  /** The notification channel: a plain lower-case identifier (it is written into LISTEN). */
  channel: string;
  /** What is listened for, in log lines ("channel change", "source change"). */
  label: string;
  logger: Pick<Logger, 'info' | 'warn'>;
  onNotice(payload: string | undefined): void;
  /** The connection is gone: notices sent from now until `onReconnected` are lost. */
  onLost?(): void;
  /** Listening again after a loss: the time to catch up on what was missed. */
  onReconnected?(): void;
  /** After each periodic check found the connection alive. */
  onChecked?(): void;
  /** First wait before reconnecting; doubles up to `maxReconnectDelayMs` (default 500 ms and 30 s). */
  reconnectDelayMs?: number;
  maxReconnectDelayMs?: number;
  /** How often a query proves the connection alive (default 30 s): a silently dead one costs at most this long. */
  checkIntervalMs?: number;
}

const IDENTIFIER = /^[a-z_][a-z0-9_]*$/;

/**
 * LISTEN on one notification channel, over the connection all of the host's listeners share
 * (ListenConnection: outside the pool, re-opened with backoff when lost). A periodic query finds
 * a connection that died without a word. What to do about notices missed meanwhile is the
 * caller's (`onLost`, `onReconnected`).
 * @example
 * const listener = new PgListener({ db, channel: 'bot_changes', label: 'change', logger, onNotice: (payload) => apply(payload) });
 * await listener.start();
 */
export class PgListener {
  readonly #options: PgListenerOptions;
  readonly #connection: ListenConnection;
  readonly #subscriber: ListenSubscriber;
  #checkTimer: NodeJS.Timeout | undefined;

  constructor(options: PgListenerOptions) {
    if (!IDENTIFIER.test(options.channel)) throw new TypeError(`Not a notification channel name: ${options.channel}`);
    this.#options = options;
    this.#connection = ListenConnection.of(options.db);
    const { label, logger } = options;
    this.#subscriber = {
      channel: options.channel,
      reconnectDelayMs: options.reconnectDelayMs ?? 500,
      maxReconnectDelayMs: options.maxReconnectDelayMs ?? 30_000,
      notice: (payload) => options.onNotice(payload),
      lost: (error) => {
        options.onLost?.();
        logger.warn({ err: error }, `${label} listener lost its connection; reconnecting`);
      },
      reconnected: () => {
        logger.info(`${label} listener reconnected`);
        options.onReconnected?.();
      },
      reconnectFailed: (error) => logger.warn({ err: error }, `${label} listener could not reconnect yet`),
    };
  }

  /** Resolves once listening; a failure here is the caller's (the database is down at start). */
  async start(): Promise<void> {
    await this.#connection.subscribe(this.#subscriber);
    this.#checkTimer = setInterval(() => void this.#check(), this.#options.checkIntervalMs ?? 30_000);
    this.#checkTimer.unref();
  }

  async close(): Promise<void> {
    clearInterval(this.#checkTimer);
    await this.#connection.unsubscribe(this.#subscriber);
  }

  async #check(): Promise<void> {
    if (await this.#connection.check()) this.#options.onChecked?.();
  }
}
