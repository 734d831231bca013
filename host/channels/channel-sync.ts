import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type pg from 'pg';
import type { ChannelRegistry } from './channel-registry.ts';
import { CHANNEL_CHANGES, type ChannelChangeNotice } from './channel-state-store.ts';

export interface ChannelSyncOptions {
  db: Knex;
  registry: Pick<ChannelRegistry<unknown>, 'rescan' | 'applyStates'>;
  /** This instance's id: its own notices are skipped, it applied those changes already. */
  instanceId: string;
  logger: Logger;
  /** First wait before reconnecting a lost listener; doubles up to `maxReconnectDelayMs`. */
  reconnectDelayMs?: number;
  maxReconnectDelayMs?: number;
  /**
   * How often the listening connection is checked and the stored states re-applied (default
   * 30 s), so a connection that died silently, or a notice lost with it, costs at most this long.
   */
  reconcileMs?: number;
}

/**
 * Keeps this instance's channels in step with the others: LISTENs on a connection of its own
 * (outside the pool, which would hand it to other queries) and, on a notice from another
 * instance, applies the stored enabled states or rescans. A lost connection is re-opened with
 * backoff and followed by a full re-apply, since notices sent meanwhile are gone.
 */
export class ChannelSync {
  #client: pg.Client | undefined;
  #reconnectTimer: NodeJS.Timeout | undefined;
  #reconcileTimer: NodeJS.Timeout | undefined;
  #delayMs: number;
  #stopped = false;

  constructor(private readonly options: ChannelSyncOptions) {
    this.#delayMs = options.reconnectDelayMs ?? 500;
  }

  /**
   * Resolves once listening, then applies the stored states once: a change made between this
   * instance's first discovery and now was announced before it listened. A failure here is the
   * caller's (the database is down at start).
   */
  async start(): Promise<void> {
    await this.#listen();
    await this.options.registry.applyStates();
    this.#reconcileTimer = setInterval(() => void this.#reconcile(), this.options.reconcileMs ?? 30_000);
    this.#reconcileTimer.unref();
  }

  async close(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#reconnectTimer);
    clearInterval(this.#reconcileTimer);
    const client = this.#client;
    this.#client = undefined;
    if (client) await this.options.db.client.destroyRawConnection(client);
  }

  async #listen(): Promise<void> {
    const client: pg.Client = await this.options.db.client.acquireRawConnection();
    if (this.#stopped) return void (await this.options.db.client.destroyRawConnection(client));
    client.on('notification', (message) => {
      if (message.channel === CHANNEL_CHANGES) this.#onNotice(message.payload);
    });
    client.on('error', (error) => this.#lost(client, error));
    client.on('end', () => this.#lost(client));
    try {
      await client.query(`LISTEN ${CHANNEL_CHANGES}`);
    } catch (error) {
      await this.options.db.client.destroyRawConnection(client).catch(() => undefined);
      throw error;
    }
    this.#client = client;
    this.#delayMs = this.options.reconnectDelayMs ?? 500;
  }

  /** A query on the listening connection proves it alive (else it is re-opened); then the states are re-applied. */
  async #reconcile(): Promise<void> {
    const client = this.#client;
    if (!client) return;
    try {
      await client.query('SELECT 1');
    } catch (error) {
      return this.#lost(client, error as Error);
    }
    await this.options.registry.applyStates().catch((error: unknown) => this.options.logger.error({ err: error }, 'applying channel states failed'));
  }

  #onNotice(payload: string | undefined): void {
    let notice: ChannelChangeNotice;
    try {
      notice = JSON.parse(payload ?? '') as ChannelChangeNotice;
    } catch {
      return this.options.logger.warn({ payload }, 'ignoring an unreadable channel change notice');
    }
    if (notice.from === this.options.instanceId) return;
    const change = notice.event === 'rescan' ? this.options.registry.rescan() : this.options.registry.applyStates();
    change.catch((error: unknown) => this.options.logger.error({ err: error, event: notice.event }, 'applying a channel change failed'));
  }

  #lost(client: pg.Client, error?: Error): void {
    if (this.#client !== client || this.#stopped) return;
    this.#client = undefined;
    client.removeAllListeners('notification');
    this.options.logger.warn({ err: error }, 'channel change listener lost its connection; reconnecting');
    void this.options.db.client.destroyRawConnection(client).catch(() => undefined);
    this.#scheduleReconnect();
  }

  #scheduleReconnect(): void {
    if (this.#stopped) return;
    this.#reconnectTimer = setTimeout(() => {
      this.#listen().then(
        () => {
          this.options.logger.info('channel change listener reconnected');
          this.options.registry.applyStates().catch((error: unknown) => this.options.logger.error({ err: error }, 'applying channel states failed'));
        },
        (error: unknown) => {
          this.options.logger.warn({ err: error }, 'channel change listener could not reconnect yet');
          this.#delayMs = Math.min(this.#delayMs * 2, this.options.maxReconnectDelayMs ?? 30_000);
          this.#scheduleReconnect();
        },
      );
    }, this.#delayMs);
    this.#reconnectTimer.unref();
  }
}
