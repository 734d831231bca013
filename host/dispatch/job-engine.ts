import { EventEmitter } from 'node:events';
import { makeWorkerUtils, run, type Runner, type WorkerEvents, type WorkerUtils } from 'graphile-worker';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type pg from 'pg';
import { enqueueInboundEventLater, PROCESS_INBOUND_EVENT } from './enqueue-inbound-events.ts';
import type { InboundEventProcessor } from './inbound-event-processor.ts';
import { failAbandonedEvents } from './fail-abandoned-events.ts';
import { jobEngineLogger } from './job-engine-logger.ts';
import { createJobEnginePool } from './job-engine-pool.ts';
import { WorkerLeases } from './worker-leases.ts';

export interface JobEngineOptions {
  db: Knex;
  processor: Pick<InboundEventProcessor, 'process'>;
  /** Jobs run at once by this instance. */
  concurrency: number;
  /** How often to look for jobs due later (retries); new jobs arrive by LISTEN/NOTIFY at once. */
  pollIntervalMs: number;
  /** See WorkerLeases. */
  leaseMs: number;
  /** Called each time the runner was started again after dying (metrics). */
  onRestart?: () => void;
  logger: Logger;
}

/** First wait before starting the runner again after it died; doubles up to the max. */
const RESTART_DELAY_MS = 500;
const MAX_RESTART_DELAY_MS = 10_000;
/**
 * First wait before an event held back by an earlier message asks again; doubles up to the max
 * (graphile-worker's first retry of a failed job comes about 2.7 s after the failure).
 */
const BEHIND_RECHECK_MS = 1_000;
const MAX_BEHIND_RECHECK_MS = 30_000;

/**
 * How this instance takes and finishes jobs. Without a local queue each worker asks for its own
 * job, and graphile-worker's query for one locks every available named queue (one per
 * conversation) while it runs: workers asking at the same moment find them locked, get nothing
 * and sleep until a new job is announced or the next poll, so a backlog over many conversations
 * drains a few jobs at a time.
 * Here one fetch of up to `concurrency` jobs serves the whole instance (one job per
 * conversation, whose queue stays locked until that job completes, so order holds), and
 * completions of the same moment share one statement (`npm run bench -- e2e`: about +50%
 * messages/s). Fetched jobs are locked by the pool, whose lease WorkerLeases holds, so a dead
 * host's fetched jobs are freed like its running ones; they wait for this instance's workers,
 * not another instance's. A job completed but not yet recorded when the host dies runs again
 * and finds its event done.
 * Failures are batched too: unbatched, a failure that cannot be recorded (the database is gone)
 * rejects a promise graphile-worker never awaits, and Node ends the process on it; batched, it
 * stops the runner, which JobEngine starts again.
 */
function batchingPreset(concurrency: number) {
  return { localQueue: { size: concurrency }, completeJobBatchDelay: 0, failJobBatchDelay: 0 };
}

/**
 * The dispatcher's job engine: graphile-worker on our database, running the jobs the inbox
 * enqueued with the events (DESIGN §7 steps 4–5). Jobs of one conversation share a named queue
 * and run one after another; different conversations run in parallel, on any instance. A failed
 * job is retried with graphile-worker's exponential backoff up to its `max_attempts`.
 *
 * The engine outlives its runner. graphile-worker stops a runner for good when it cannot record
 * a job's completion or failure (a PostgreSQL restart), leaving the jobs it held locked by a
 * live instance, which no lease frees. The engine then starts a new runner, with new worker
 * ids, once the database answers again, and first frees the jobs the old one held: they run
 * again, and an event already finished is found done.
 */
export class JobEngine {
  #runner: Runner | undefined;
  #restartTimer: NodeJS.Timeout | undefined;
  #restarting: Promise<void> = Promise.resolve();
  /** Settles when the current runner's workers have all stopped (see #startRunner). */
  #runnerDone: Promise<void> = Promise.resolve();
  #stopping = false;
  /** Worker and pool ids of runners that died, whose jobs are not freed yet. */
  readonly #deadIds = new Set<string>();

  private constructor(
    private readonly options: JobEngineOptions,
    private readonly utils: WorkerUtils,
    private readonly leases: WorkerLeases,
    private readonly pool: pg.Pool,
  ) {}

  static async start(options: JobEngineOptions): Promise<JobEngine> {
    const pool = createJobEnginePool(options.db, options.concurrency + 2, (error) => options.logger.warn({ err: error }, 'a job engine connection failed'));
    const utils = await makeWorkerUtils({ pgPool: pool, logger: jobEngineLogger(options.logger) });
    const leases = new WorkerLeases({
      db: options.db,
      leaseMs: options.leaseMs,
      unlock: (ids) => utils.forceUnlockWorkers(ids),
      afterReclaim: () => failAbandonedEvents(options.db),
      logger: options.logger,
    });
    leases.start();
    const engine = new JobEngine(options, utils, leases, pool);
    await engine.#startRunner();
    return engine;
  }

  /** Waits for the jobs in flight, then stops; jobs not started stay queued for any instance. */
  async stop(): Promise<void> {
    this.#stopping = true;
    clearTimeout(this.#restartTimer);
    await this.#restarting;
    const runner = this.#runner;
    if (runner) {
      // A runner dying at this moment refuses stop(); its workers still finish their jobs.
      await runner.stop().catch(() => undefined);
      await this.#runnerDone;
    }
    if (this.#deadIds.size > 0) {
      // A dead runner's jobs are freed now if the database answers; otherwise their leases are
      // left to run out, so another instance frees them (deleting them would strand the jobs
      // for graphile-worker's four hours).
      const ids = [...this.#deadIds];
      await this.leases.release(ids).catch((error: unknown) => {
        this.options.logger.warn({ err: error, workers: ids }, 'could not free the jobs of a dead job runner; another instance will once their lease runs out');
        this.leases.forget(ids);
      });
    }
    await this.leases.stop();
    await this.utils.release();
    await this.pool.end();
  }

  async #startRunner(): Promise<void> {
    const { options } = this;
    // The ids this runner's pool and workers lock jobs under, to free them if it dies.
    const held = new Set<string>();
    const events: WorkerEvents = new EventEmitter();
    const hold = (id: string) => {
      held.add(id);
      void this.leases.hold(id).catch(() => undefined);
    };
    events.on('pool:create', ({ workerPool }) => hold(workerPool.id));
    events.on('worker:create', ({ worker }) => hold(worker.workerId));
    // Filled in once run() returns; a pool could die before that.
    const started: { runner?: Runner } = {};
    let ended = false;
    let settle = () => {};
    this.#runnerDone = new Promise<void>((resolve) => (settle = resolve));
    const end = (error?: unknown) => {
      if (ended) return;
      ended = true;
      settle();
      this.#runnerEnded(started.runner, held, error);
    };
    // A pool shutting down that we did not stop has died. Once its workers have stopped, no job
    // of it runs any more. Its runner's promise may never settle: graphile-worker 0.18's batcher
    // miscounts repeated failures and then waits for it forever, so the events are what we trust.
    events.on('pool:gracefulShutdown:complete', () => end());
    events.on('pool:gracefulShutdown:error', ({ error }) => end(error));
    events.on('pool:forcefulShutdown:complete', () => end());
    events.on('pool:forcefulShutdown:error', ({ error }) => end(error));
    const runner = await run({
      pgPool: this.pool,
      logger: jobEngineLogger(options.logger),
      events,
      concurrency: options.concurrency,
      pollInterval: options.pollIntervalMs,
      preset: { worker: batchingPreset(options.concurrency) },
      noHandleSignals: true,
      taskList: {
        [PROCESS_INBOUND_EVENT]: async (payload, helpers) => {
          const { inboundEventId, behindChecks = 0 } = payload as { inboundEventId: string; behindChecks?: number };
          const outcome = await options.processor.process(inboundEventId, { number: helpers.job.attempts, maxAttempts: helpers.job.max_attempts });
          if (outcome === 'handled') return;
          // Queued again as a new job. Behind an earlier message: checking again after 1, 2, 4 …
          // up to 30 s (a hold can last as long as a platform's Retry-After), using none of this
          // event's attempts. After a Retry-After: when the platform asked (the event counted
          // that attempt itself).
          if (outcome === 'behind-earlier-message') {
            const delayMs = Math.min(BEHIND_RECHECK_MS * 2 ** behindChecks, MAX_BEHIND_RECHECK_MS);
            await enqueueInboundEventLater(options.db, inboundEventId, delayMs, helpers.job.max_attempts, behindChecks + 1);
          } else {
            await enqueueInboundEventLater(options.db, inboundEventId, outcome.retryAfterMs, helpers.job.max_attempts);
          }
        },
      },
    });
    started.runner = runner;
    this.#runner = runner;
    runner.promise.then(() => end(), end);
  }

  #runnerEnded(runner: Runner | undefined, held: Set<string>, error: unknown): void {
    // Stopped by us without an error, graphile-worker gave its jobs back; otherwise they may
    // still be locked by its ids.
    if (!this.#stopping || error !== undefined) for (const id of held) this.#deadIds.add(id);
    if (this.#stopping) return;
    if (this.#runner === runner) this.#runner = undefined;
    // Releases what else the dead runner holds (its cron timer); its pool is stopping already.
    runner?.stop('the worker pool died').catch(() => undefined);
    this.options.logger.error({ err: error }, 'the job runner stopped (the database was lost?); starting it again once the database answers');
    this.#scheduleRestart(RESTART_DELAY_MS);
  }

  #scheduleRestart(delayMs: number): void {
    this.#restartTimer = setTimeout(() => {
      this.#restarting = this.#restart().then(
        (freed) => {
          if (this.#stopping) return;
          this.options.onRestart?.();
          this.options.logger.info({ freedWorkers: freed }, 'the job runner started again');
        },
        (error: unknown) => {
          if (this.#stopping) return;
          this.options.logger.warn({ err: error }, 'the job runner could not start again yet');
          this.#scheduleRestart(Math.min(delayMs * 2, MAX_RESTART_DELAY_MS));
        },
      );
    }, delayMs);
    this.#restartTimer.unref();
  }

  /** Frees the dead runners' jobs, then starts a new runner; resolves with how many ids were freed. */
  async #restart(): Promise<number> {
    if (this.#stopping) return 0;
    const ids = [...this.#deadIds];
    await this.leases.release(ids);
    for (const id of ids) this.#deadIds.delete(id);
    if (this.#stopping) return ids.length;
    await this.#startRunner();
    return ids.length;
  }
}
