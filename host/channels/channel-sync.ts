import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { PgListener } from '../db/pg-listener.ts';
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
 * Keeps this instance's channels in step with the others: on a notice from another instance it
 * applies the stored enabled states or rescans. Notices sent while its connection was down are
 * gone: after reconnecting it rescans, and at every periodic check it re-applies the states.
 */
export class ChannelSync {
  readonly #options: ChannelSyncOptions;
  readonly #listener: PgListener;

  constructor(options: ChannelSyncOptions) {
    this.#options = options;
    const reapply = () => void this.#apply(options.registry.applyStates(), 'states');
    // A rescan notice sent while the connection was down is gone too, and the packages on disk
    // may have been upgraded meanwhile: rescan (which applies the stored states as well).
    const catchUp = () => void this.#apply(options.registry.rescan(), 'rescan');
    this.#listener = new PgListener({
      db: options.db,
      channel: CHANNEL_CHANGES,
      label: 'channel change',
      logger: options.logger,
      onNotice: (payload) => this.#onNotice(payload),
      onReconnected: catchUp,
      onChecked: reapply,
      ...(options.reconnectDelayMs === undefined ? {} : { reconnectDelayMs: options.reconnectDelayMs }),
      ...(options.maxReconnectDelayMs === undefined ? {} : { maxReconnectDelayMs: options.maxReconnectDelayMs }),
      ...(options.reconcileMs === undefined ? {} : { checkIntervalMs: options.reconcileMs }),
    });
  }

  /**
   * Resolves once listening, then applies the stored states once: a change made between this
   * instance's first discovery and now was announced before it listened. A failure here is the
   * caller's (the database is down at start).
   */
  async start(): Promise<void> {
    await this.#listener.start();
    await this.#options.registry.applyStates();
  }

  close(): Promise<void> {
    return this.#listener.close();
  }

  #onNotice(payload: string | undefined): void {
    let notice: ChannelChangeNotice;
    try {
      notice = JSON.parse(payload ?? '') as ChannelChangeNotice;
    } catch {
      return this.#options.logger.warn({ payload }, 'ignoring an unreadable channel change notice');
    }
    if (notice.from === this.#options.instanceId) return;
    void this.#apply(notice.event === 'rescan' ? this.#options.registry.rescan() : this.#options.registry.applyStates(), notice.event);
  }

  async #apply(change: Promise<unknown>, event: string): Promise<void> {
    await change.catch((error: unknown) => this.#options.logger.error({ err: error, event }, 'applying a channel change failed'));
  }
}
