import type { PlainInboundEvent } from '@bot-ai/api';
import type { Knex } from 'knex';
import { AppError } from '../errors/app-error.ts';
import { isConnectionError } from '../errors/postgres-errors.ts';
import { GroupCommit } from '../db/group-commit.ts';
import { insertInboxRows, type InboxEnqueue, type ReceivedCommit } from './insert-inbox-rows.ts';

export type { InboxEnqueue } from './insert-inbox-rows.ts';

export interface InboxCommit {
  sourceId: string;
  workflowId: string | undefined;
  events: PlainInboundEvent[];
}

export interface InboxStoreOptions {
  /**
   * Let concurrent commits share one INSERT (default on). Off, every commit is its own
   * statement; `npm run bench -- ingest` compares the two.
   */
  batching?: boolean;
  /** Most event rows in one shared INSERT (default 500); one request's events are never split. */
  maxBatchRows?: number;
  /**
   * Enqueue the dispatch job of each new event in the INSERT's own statement (one autocommit
   * statement, no transaction around it), so that a 200 means events and jobs are both stored;
   * `maxAttempts` tries before an event is a dead letter.
   */
  enqueue?: InboxEnqueue;
}

const DEFAULT_MAX_BATCH_ROWS = 500;

/**
 * The durable inbox: decoded events are committed here before the platform gets its 200, so
 * nothing acknowledged is lost. A retried delivery of an event already stored (same source and
 * event id) is acknowledged without a second row. Concurrent commits are grouped into one
 * multi-row INSERT (group commit), which saves a round trip and a WAL flush per request under
 * load and costs nothing when requests come one at a time.
 * @example
 * const inbox = new InboxStore(db, () => new Date());
 * const added = await inbox.commit({ sourceId, workflowId: undefined, events }); // rows are committed now
 * await inbox.close();
 */
export class InboxStore {
  readonly #db: Knex;
  readonly #now: () => Date;
  readonly #enqueue: InboxEnqueue | undefined;
  readonly #batches: GroupCommit<ReceivedCommit, number> | undefined;
  readonly #inFlight = new Set<Promise<number>>();
  #closed = false;

  constructor(db: Knex, now: () => Date, { batching = true, maxBatchRows = DEFAULT_MAX_BATCH_ROWS, enqueue }: InboxStoreOptions = {}) {
    this.#db = db;
    this.#now = now;
    this.#enqueue = enqueue;
    this.#batches = batching
      ? new GroupCommit({
          writeBatch: (commits) => insertInboxRows(db, commits, enqueue),
          rowsOf: (commit) => commit.events.length,
          maxRows: maxBatchRows,
          retryAlone: (error) => !isConnectionError(error),
        })
      : undefined;
  }

  /**
   * Resolves once this request's events are committed (visible to every connection) with how
   * many of them were new; rejects when they are not, whatever happened to other requests.
   */
  commit({ sourceId, workflowId, events }: InboxCommit): Promise<number> {
    if (this.#closed) return Promise.reject(new AppError('BOT_ERR_DB_UNAVAILABLE', 'The inbox is closed: the host is shutting down'));
    if (events.length === 0) return Promise.resolve(0);
    const received: ReceivedCommit = { sourceId, workflowId, events, receivedAt: this.#now() };
    const written = this.#batches ? this.#batches.submit(received) : insertInboxRows(this.#db, [received], this.#enqueue).then(([added]) => added!);
    this.#inFlight.add(written);
    const forget = () => this.#inFlight.delete(written);
    written.then(forget, forget);
    return written;
  }

  /** Refuses new commits at once, then resolves when every commit already accepted has finished. */
  async close(): Promise<void> {
    this.#closed = true;
    await Promise.allSettled(this.#inFlight);
  }
}
