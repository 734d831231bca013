import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type pg from 'pg';

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
 * LISTEN on a PostgreSQL connection of its own (outside the pool, which would hand it to other
 * queries), kept open: a lost connection is re-opened with backoff, and a periodic query finds
 * one that died without a word. What to do about notices missed meanwhile is the caller's
 * (`onLost`, `onReconnected`).
 * @example
 * const listener = new PgListener({ db, channel: 'bot_changes', label: 'change', logger, onNotice: (payload) => apply(payload) });
 * await listener.start();
 */
export class PgListener {
  readonly #options: PgListenerOptions;
  #client: pg.Client | undefined;
  #reconnectTimer: NodeJS.Timeout | undefined;
  #checkTimer: NodeJS.Timeout | undefined;
  #delayMs: number;
  #stopped = false;

  constructor(options: PgListenerOptions) {
    if (!IDENTIFIER.test(options.channel)) throw new TypeError(`Not a notification channel name: ${options.channel}`);
    this.#options = options;
    this.#delayMs = options.reconnectDelayMs ?? 500;
  }

  /** Resolves once listening; a failure here is the caller's (the database is down at start). */
  async start(): Promise<void> {
    await this.#listen();
    this.#checkTimer = setInterval(() => void this.#check(), this.#options.checkIntervalMs ?? 30_000);
    this.#checkTimer.unref();
  }

  async close(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#reconnectTimer);
    clearInterval(this.#checkTimer);
    const client = this.#client;
    this.#client = undefined;
    if (client) await this.#options.db.client.destroyRawConnection(client);
  }

  async #listen(): Promise<void> {
    const { db, channel } = this.#options;
    const client: pg.Client = await db.client.acquireRawConnection();
    if (this.#stopped) return void (await db.client.destroyRawConnection(client));
    client.on('notification', (message) => {
      if (message.channel === channel) this.#options.onNotice(message.payload);
    });
    client.on('error', (error) => this.#lost(client, error));
    client.on('end', () => this.#lost(client));
    try {
      await client.query(`LISTEN ${channel}`);
    } catch (error) {
      await db.client.destroyRawConnection(client).catch(() => undefined);
      throw error;
    }
    this.#client = client;
    this.#delayMs = this.#options.reconnectDelayMs ?? 500;
  }

  async #check(): Promise<void> {
    const client = this.#client;
    if (!client) return;
    try {
      await client.query('SELECT 1');
    } catch (error) {
      return this.#lost(client, error as Error);
    }
    this.#options.onChecked?.();
  }

  #lost(client: pg.Client, error?: Error): void {
    if (this.#client !== client || this.#stopped) return;
    this.#client = undefined;
    client.removeAllListeners('notification');
    this.#options.onLost?.();
    this.#options.logger.warn({ err: error }, `${this.#options.label} listener lost its connection; reconnecting`);
    void this.#options.db.client.destroyRawConnection(client).catch(() => undefined);
    this.#scheduleReconnect();
  }

  #scheduleReconnect(): void {
    if (this.#stopped) return;
    this.#reconnectTimer = setTimeout(() => {
      this.#listen().then(
        () => {
          this.#options.logger.info(`${this.#options.label} listener reconnected`);
          this.#options.onReconnected?.();
        },
        (error: unknown) => {
          this.#options.logger.warn({ err: error }, `${this.#options.label} listener could not reconnect yet`);
          this.#delayMs = Math.min(this.#delayMs * 2, this.#options.maxReconnectDelayMs ?? 30_000);
          this.#scheduleReconnect();
        },
      );
    }, this.#delayMs);
    this.#reconnectTimer.unref();
  }
}
