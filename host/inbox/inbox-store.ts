import type { PlainInboundEvent } from '@bot-ai/api';
import type { Knex } from 'knex';
import { AppError } from '../errors/app-error.ts';
import { isConnectionError } from '../errors/postgres-errors.ts';
import { GroupCommit } from '../db/group-commit.ts';
import { insertInboxRows, type ReceivedCommit } from './insert-inbox-rows.ts';

export interface InboxCommit {
  sourceId: string;
  /** The source's channel, as the host knows it: stored as each event's `channelName`. */
  channel: string;
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
   * Wake the dispatchers when new events commit (a NOTIFY in the INSERT's own statement). The
   * inbox is their queue: a 200 means the events are stored, and nothing else needs to be.
   */
  notify?: boolean;
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
 * const added = await inbox.commit({ sourceId, channel: 'sample', workflowId: undefined, events }); // rows are committed now
 * await inbox.close();
 */
export class InboxStore {
  readonly #db: Knex;
  readonly #now: () => Date;
  readonly #notify: boolean;
  readonly #batches: GroupCommit<ReceivedCommit, number> | undefined;
  readonly #inFlight = new Set<Promise<number>>();
  #closed = false;

  constructor(db: Knex, now: () => Date, { batching = true, maxBatchRows = DEFAULT_MAX_BATCH_ROWS, notify = false }: InboxStoreOptions = {}) {
    this.#db = db;
    this.#now = now;
    this.#notify = notify;
    this.#batches = batching
      ? new GroupCommit({
          writeBatch: (commits) => insertInboxRows(db, commits, notify),
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
  commit({ sourceId, channel, workflowId, events }: InboxCommit): Promise<number> {
    if (this.#closed) return Promise.reject(new AppError('BOT_ERR_DB_UNAVAILABLE', 'The inbox is closed: the host is shutting down'));
    if (events.length === 0) return Promise.resolve(0);
    // The plugin wrote `channelName`, and could claim any (`web`, say); workflows read it as
    // `$input.channel`, so the host's own name for the source's channel replaces it.
    const received: ReceivedCommit = { sourceId, workflowId, events: events.map((event) => ({ ...event, channelName: channel })), receivedAt: this.#now() };
    const written = this.#batches ? this.#batches.submit(received) : insertInboxRows(this.#db, [received], this.#notify).then(([added]) => added!);
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
