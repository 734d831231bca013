import type { Knex } from 'knex';
import type pg from 'pg';

/** What a listening connection tells each of its subscribers. */
export interface ListenSubscriber {
  readonly channel: string;
  /** First wait before a reconnect: the connection takes its subscribers' least. */
  readonly reconnectDelayMs: number;
  readonly maxReconnectDelayMs: number;
  notice(payload: string | undefined): void;
  lost(error: Error | undefined): void;
  reconnected(): void;
  reconnectFailed(error: unknown): void;
}

/** How the connection shows in `pg_stat_activity`: an operator (or a test) can tell it from the pool's. */
export const LISTEN_APPLICATION_NAME = 'bot host listener';

const connections = new WeakMap<Knex, ListenConnection>();

/**
 * One PostgreSQL connection per database handle, outside the pool (which would hand it to other
 * queries), LISTENing on the channel of every subscriber: each kind of notice the host listens
 * for (the inbox, the caches, channel changes, web chat replies) used to hold a connection of its
 * own, five per instance beside the pool. A lost connection is re-opened with backoff, every
 * channel listened on again, and each subscriber told; notices sent meanwhile are gone, which is
 * the subscribers' to make up for.
 */
export class ListenConnection {
  readonly #db: Knex;
  readonly #subscribers = new Set<ListenSubscriber>();
  #client: pg.Client | undefined;
  #opening: Promise<pg.Client> | undefined;
  #reconnectTimer: NodeJS.Timeout | undefined;
  #delayMs: number | undefined;

  private constructor(db: Knex) {
    this.#db = db;
  }

  /** The connection shared by every listener of `db`. */
  static of(db: Knex): ListenConnection {
    let connection = connections.get(db);
    if (!connection) {
      connection = new ListenConnection(db);
      connections.set(db, connection);
    }
    return connection;
  }

  /** Resolves once `subscriber`'s channel is listened on; a failure (the database down) is the caller's, and leaves it out. */
  async subscribe(subscriber: ListenSubscriber): Promise<void> {
    this.#subscribers.add(subscriber);
    try {
      // LISTEN again is harmless, and covers a connection opened while this one was being added.
      await (await this.#connected()).query(`LISTEN ${subscriber.channel}`);
    } catch (error) {
      await this.unsubscribe(subscriber);
      throw error;
    }
  }

  /** Stops hearing `subscriber`'s channel once no other subscriber wants it; closes the connection with the last one. */
  async unsubscribe(subscriber: ListenSubscriber): Promise<void> {
    if (!this.#subscribers.delete(subscriber)) return;
    const client = this.#client;
    if (this.#subscribers.size === 0) return this.#close();
    if (client && !this.#channels().has(subscriber.channel)) await client.query(`UNLISTEN ${subscriber.channel}`).catch(() => undefined);
  }

  /** Proves the connection alive with a query; false (and the connection treated as lost) when it is not, or is down. */
  async check(): Promise<boolean> {
    const client = this.#client;
    if (!client) return false;
    try {
      await client.query('SELECT 1');
      return true;
    } catch (error) {
      this.#lost(client, error as Error);
      return false;
    }
  }

  #channels(): Set<string> {
    return new Set([...this.#subscribers].map((subscriber) => subscriber.channel));
  }

  /** The open connection, or one attempt at opening it (shared by whoever asks meanwhile). */
  #connected(): Promise<pg.Client> {
    if (this.#client) return Promise.resolve(this.#client);
    this.#opening ??= this.#open().finally(() => (this.#opening = undefined));
    return this.#opening;
  }

  async #open(): Promise<pg.Client> {
    const client: pg.Client = await this.#db.client.acquireRawConnection();
    client.on('notification', (message) => {
      for (const subscriber of this.#subscribers) if (subscriber.channel === message.channel) subscriber.notice(message.payload);
    });
    client.on('error', (error) => this.#lost(client, error));
    client.on('end', () => this.#lost(client));
    try {
      await client.query(`SET application_name = '${LISTEN_APPLICATION_NAME}'`);
      for (const channel of this.#channels()) await client.query(`LISTEN ${channel}`);
    } catch (error) {
      await this.#db.client.destroyRawConnection(client).catch(() => undefined);
      throw error;
    }
    if (this.#subscribers.size === 0) {
      // Everyone left while it opened.
      await this.#db.client.destroyRawConnection(client).catch(() => undefined);
      throw new Error('no listener is left');
    }
    this.#client = client;
    this.#delayMs = undefined;
    return client;
  }

  #lost(client: pg.Client, error?: Error): void {
    if (this.#client !== client) return;
    this.#client = undefined;
    client.removeAllListeners('notification');
    void this.#db.client.destroyRawConnection(client).catch(() => undefined);
    for (const subscriber of this.#subscribers) subscriber.lost(error);
    this.#scheduleReconnect();
  }

  #scheduleReconnect(): void {
    if (this.#subscribers.size === 0 || this.#reconnectTimer) return;
    const first = Math.min(...[...this.#subscribers].map((subscriber) => subscriber.reconnectDelayMs));
    const delayMs = this.#delayMs ?? first;
    this.#reconnectTimer = setTimeout(() => {
      this.#reconnectTimer = undefined;
      if (this.#subscribers.size === 0) return;
      this.#connected().then(
        () => {
          for (const subscriber of this.#subscribers) subscriber.reconnected();
        },
        (error: unknown) => {
          for (const subscriber of this.#subscribers) subscriber.reconnectFailed(error);
          const most = Math.min(...[...this.#subscribers].map((subscriber) => subscriber.maxReconnectDelayMs));
          this.#delayMs = Math.min(delayMs * 2, most);
          this.#scheduleReconnect();
        },
      );
    }, delayMs);
    this.#reconnectTimer.unref();
  }

  async #close(): Promise<void> {
    clearTimeout(this.#reconnectTimer);
    this.#reconnectTimer = undefined;
    connections.delete(this.#db);
    const client = this.#client;
    this.#client = undefined;
    if (client) await this.#db.client.destroyRawConnection(client).catch(() => undefined);
  }
}
