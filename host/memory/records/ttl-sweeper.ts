import { setTimeout as sleep } from 'node:timers/promises';
import type { Knex } from 'knex';
import type pg from 'pg';
import type { Logger } from 'pino';
import { PeriodicRun } from '../../timers/periodic-run.ts';

/** What a sweeper deletes: rows whose time column is at or before a cutoff. */
export interface SweepTarget {
  /** For the logs, e.g. "expired memory records". */
  name: string;
  /** The advisory lock every instance takes to sweep this target, so one sweeps at a time. */
  lockKey: bigint;
  /** One batch: its bindings are the cutoff (ISO time) and the batch size. */
  deleteBatchSql: string;
  /** The rows at or before this time go. */
  cutoff(now: Date): Date;
}

/**
 * One batch of a sweep of `table` by its time column: one short statement, `SKIP LOCKED` stepping
 * around rows a writer holds right now, and ordering by the column walks its index instead of
 * scanning the table. Bindings: the cutoff, the batch size.
 */
export function batchDeleteSql(table: string, timeColumn: string): string {
  return `
    DELETE FROM ${table}
     WHERE ctid = ANY(ARRAY(
       SELECT ctid FROM ${table}
        WHERE ${timeColumn} <= ?::timestamptz
        ORDER BY ${timeColumn}
        LIMIT ?
        FOR UPDATE SKIP LOCKED))`;
}

/** Expired memory records, through the partial expiry index. Lock key: "memttl" in ASCII. */
export const EXPIRED_MEMORY_RECORDS: SweepTarget = {
  name: 'expired memory records',
  lockKey: 0x6d656d74746cn,
  deleteBatchSql: batchDeleteSql('memory_records', 'expires_at'),
  cutoff: (now) => now,
};

export interface TtlSweeperOptions {
  /** Time between the end of one sweep and the start of the next. */
  intervalMs: number;
  /** Rows deleted per statement. */
  batchSize: number;
  /** Pause between batches, so concurrent writers keep their latency. */
  pauseMs: number;
  now: () => Date;
  logger: Pick<Logger, 'info' | 'warn' | 'error'>;
  /** Default: expired memory records. */
  target?: SweepTarget;
}

export interface SweepResult {
  deleted: number;
  /** DELETE statements run, the last one deleting fewer than the batch size. */
  batches: number;
  /** False when another instance held the sweep lock, so nothing was done. */
  ran: boolean;
}

/**
 * Deletes rows past their time (expired memory records by default) in batches on a timer. Only
 * one instance sweeps a target at a time: the one holding its session-level advisory lock, on a
 * connection kept for the whole sweep, so the batches themselves need no long transaction.
 */
export class TtlSweeper {
  readonly #db: Knex;
  readonly #options: TtlSweeperOptions;
  readonly #target: SweepTarget;
  readonly #timer: PeriodicRun<SweepResult>;
  /** Ends a pause between batches at once when the sweeper closes. */
  readonly #closing = new AbortController();

  constructor(db: Knex, options: TtlSweeperOptions) {
    if (!Number.isInteger(options.batchSize) || options.batchSize <= 0) throw new TypeError('TtlSweeper: batchSize must be a positive integer');
    if (!Number.isInteger(options.pauseMs) || options.pauseMs < 0) throw new TypeError('TtlSweeper: pauseMs must be a non-negative integer');
    this.#db = db;
    this.#options = options;
    this.#target = options.target ?? EXPIRED_MEMORY_RECORDS;
    this.#timer = new PeriodicRun({ intervalMs: options.intervalMs, name: this.#target.name, run: () => this.#sweepWithLock(), worthLogging: (result) => result.deleted > 0, logger: options.logger });
  }

  /** Schedules sweeps every `intervalMs`; a sweep never overlaps the previous one. */
  start(): void {
    this.#timer.start();
  }

  /** Stops the timer, cuts a running sweep short after its current batch, and waits for it. */
  close(): Promise<void> {
    this.#closing.abort();
    return this.#timer.close();
  }

  /**
   * Runs one sweep now; `ran: false` when another instance holds the lock. A call while this
   * instance is sweeping shares that sweep instead of starting a second one.
   */
  sweepOnce(): Promise<SweepResult> {
    return this.#timer.runOnce();
  }

  async #sweepWithLock(): Promise<SweepResult> {
    const connection = (await this.#db.client.acquireConnection()) as pg.Client;
    let locked = false;
    try {
      locked = await this.#query<{ locked: boolean }>(connection, 'SELECT pg_try_advisory_lock(?::bigint) AS locked', [this.#target.lockKey.toString()]).then(
        (rows) => rows[0]?.locked === true,
      );
      if (!locked) return { deleted: 0, batches: 0, ran: false };
      return { ...(await this.#deleteBatches(connection)), ran: true };
    } finally {
      if (locked) await this.#unlock(connection);
      this.#db.client.releaseConnection(connection);
    }
  }

  async #deleteBatches(connection: pg.Client): Promise<Omit<SweepResult, 'ran'>> {
    const { batchSize, pauseMs, now } = this.#options;
    let deleted = 0;
    let batches = 0;
    for (;;) {
      const cutoff = this.#target.cutoff(now()).toISOString();
      const result = await this.#db.raw<pg.QueryResult>(this.#target.deleteBatchSql, [cutoff, batchSize]).connection(connection);
      deleted += result.rowCount ?? 0;
      batches += 1;
      if ((result.rowCount ?? 0) < batchSize) return { deleted, batches };
      if (pauseMs > 0) await sleep(pauseMs, undefined, { signal: this.#closing.signal }).catch(() => undefined);
      if (this.#timer.closed) return { deleted, batches };
    }
  }

  async #unlock(connection: pg.Client): Promise<void> {
    try {
      await this.#query(connection, 'SELECT pg_advisory_unlock(?::bigint)', [this.#target.lockKey.toString()]);
    } catch (error) {
      // A session that keeps the lock would stop every instance from sweeping: end it, which
      // releases the lock and makes the pool discard the connection.
      this.#options.logger.warn({ err: error }, `could not release the lock for sweeping ${this.#target.name}; closing its connection`);
      await connection.end().catch(() => undefined);
    }
  }

  async #query<T>(connection: pg.Client, sql: string, bindings: readonly Knex.RawBinding[]): Promise<T[]> {
    const result = await this.#db.raw<pg.QueryResult>(sql, bindings).connection(connection);
    return result.rows as T[];
  }
}
