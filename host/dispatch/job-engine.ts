import { EventEmitter } from 'node:events';
import { makeWorkerUtils, run, type Runner, type WorkerEvents, type WorkerUtils } from 'graphile-worker';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type pg from 'pg';
import { PROCESS_INBOUND_EVENT } from './enqueue-inbound-events.ts';
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
  logger: Logger;
}

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
 */
function batchingPreset(concurrency: number) {
  return { localQueue: { size: concurrency }, completeJobBatchDelay: 0 };
}

/**
 * The dispatcher's job engine: graphile-worker on our database, running the jobs the inbox
 * enqueued with the events (DESIGN §7 steps 4–5). Jobs of one conversation share a named queue
 * and run one after another; different conversations run in parallel, on any instance. A failed
 * job is retried with graphile-worker's exponential backoff up to its `max_attempts`.
 */
export class JobEngine {
  private constructor(
    private readonly runner: Runner,
    private readonly utils: WorkerUtils,
    private readonly leases: WorkerLeases,
    private readonly pool: pg.Pool,
  ) {}

  static async start(options: JobEngineOptions): Promise<JobEngine> {
    const pool = createJobEnginePool(options.db, options.concurrency + 2, (error) => options.logger.warn({ err: error }, 'a job engine connection failed'));
    const logger = jobEngineLogger(options.logger);
    const utils = await makeWorkerUtils({ pgPool: pool, logger });
    const leases = new WorkerLeases({
      db: options.db,
      leaseMs: options.leaseMs,
      unlock: (ids) => utils.forceUnlockWorkers(ids),
      afterReclaim: () => failAbandonedEvents(options.db),
      logger: options.logger,
    });
    const events: WorkerEvents = new EventEmitter();
    events.on('pool:create', ({ workerPool }) => void leases.hold(workerPool.id).catch(() => undefined));
    events.on('worker:create', ({ worker }) => void leases.hold(worker.workerId).catch(() => undefined));
    leases.start();
    const runner = await run({
      pgPool: pool,
      logger,
      events,
      concurrency: options.concurrency,
      pollInterval: options.pollIntervalMs,
      preset: { worker: batchingPreset(options.concurrency) },
      noHandleSignals: true,
      taskList: {
        [PROCESS_INBOUND_EVENT]: async (payload, helpers) => {
          const { inboundEventId } = payload as { inboundEventId: string };
          await options.processor.process(inboundEventId, { number: helpers.job.attempts, maxAttempts: helpers.job.max_attempts });
        },
      },
    });
    return new JobEngine(runner, utils, leases, pool);
  }

  /** Waits for the jobs in flight, then stops; jobs not started stay queued for any instance. */
  async stop(): Promise<void> {
    await this.runner.stop();
    await this.leases.stop();
    await this.utils.release();
    await this.pool.end();
  }
}
