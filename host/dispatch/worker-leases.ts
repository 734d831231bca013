import type { Knex } from 'knex';
import type { Logger } from 'pino';

export interface WorkerLeasesOptions {
  db: Knex;
  /** A worker whose lease is not renewed for this long is dead; its jobs are freed for others. */
  leaseMs: number;
  /** Frees the jobs locked by the given dead workers (graphile-worker's forceUnlockWorkers). */
  unlock(workerIds: string[]): Promise<void>;
  /** Runs after each renewal and reclaim (e.g. ending the events whose last attempt died). */
  afterReclaim?: () => Promise<unknown>;
  logger: Pick<Logger, 'warn' | 'error'>;
}

/**
 * Leases on this instance's job workers. graphile-worker frees a dead worker's jobs only after
 * four hours; with leases renewed every third of `leaseMs` (database time, so clocks of
 * different hosts do not matter), any instance frees the jobs of a worker whose lease ran out,
 * and a job of a SIGKILLed host is picked up again within about `leaseMs`.
 */
export class WorkerLeases {
  readonly #ids = new Set<string>();
  #timer: NodeJS.Timeout | undefined;
  #tick: Promise<void> = Promise.resolve();

  constructor(private readonly options: WorkerLeasesOptions) {}

  /** Takes a lease for a worker (or a worker pool's local queue) of this instance, now. */
  hold(workerId: string): Promise<void> {
    this.#ids.add(workerId);
    return this.#renew([workerId]);
  }

  /**
   * Frees the jobs of workers of this instance that stopped for good (a runner that died), now
   * rather than after their lease, and stops renewing them. Throws while the database is away.
   */
  async release(workerIds: string[]): Promise<void> {
    if (workerIds.length === 0) return;
    await this.options.unlock(workerIds);
    await this.options.db('job_worker_leases').whereIn('worker_id', workerIds).delete();
    for (const id of workerIds) this.#ids.delete(id);
  }

  /**
   * Stops renewing these ids but keeps their lease rows, so they run out and another instance
   * frees their jobs (when this one could not).
   */
  forget(workerIds: string[]): void {
    for (const id of workerIds) this.#ids.delete(id);
  }

  start(): void {
    const interval = Math.max(50, Math.floor(this.options.leaseMs / 3));
    this.#timer = setInterval(() => {
      this.#tick = this.#tick.then(() => this.#renewAndReclaim());
    }, interval);
    this.#timer.unref();
    this.#tick = this.#renewAndReclaim();
  }

  /** Stops renewing and gives the leases back (a clean stop has released its jobs already). */
  async stop(): Promise<void> {
    clearInterval(this.#timer);
    await this.#tick;
    if (this.#ids.size > 0) await this.options.db('job_worker_leases').whereIn('worker_id', [...this.#ids]).delete();
  }

  async #renewAndReclaim(): Promise<void> {
    try {
      await this.#renew([...this.#ids]);
      await this.#reclaim();
      await this.options.afterReclaim?.();
    } catch (error) {
      this.options.logger.warn({ err: error }, 'job worker leases could not be renewed or checked; trying again');
    }
  }

  async #renew(ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.options.db.raw(
      `INSERT INTO job_worker_leases (worker_id, heartbeat_at) SELECT unnest(?::text[]), now()
       ON CONFLICT (worker_id) DO UPDATE SET heartbeat_at = now()`,
      [ids],
    );
  }

  async #reclaim(): Promise<void> {
    const { rows } = await this.options.db.raw<{ rows: { worker_id: string }[] }>(
      `SELECT worker_id FROM job_worker_leases WHERE heartbeat_at < now() - make_interval(secs => ?) AND NOT (worker_id = ANY(?::text[]))`,
      [this.options.leaseMs / 1000, [...this.#ids]],
    );
    if (rows.length === 0) return;
    const dead = rows.map((row) => row.worker_id);
    await this.options.unlock(dead);
    await this.options.db('job_worker_leases').whereIn('worker_id', dead).delete();
    this.options.logger.warn({ workers: dead }, 'freed the jobs of job workers whose lease ran out (a host died)');
  }
}
