import type { Logger } from 'pino';

export interface PeriodicRunOptions<T extends object> {
  /** Time between the end of one run and the start of the next. */
  intervalMs: number;
  /** For the logs, e.g. "expired memory records". */
  name: string;
  /** One run. It may stop early once `closed` is true. */
  run(): Promise<T>;
  /** Whether a finished run is worth an info line (it deleted something). */
  worthLogging(result: T): boolean;
  logger: Pick<Logger, 'info' | 'error'>;
}

/**
 * The timer of the host's sweeps: a run every `intervalMs` after the previous one ends (never
 * two at once, and a run asked for while one is under way shares it), its result logged when it
 * did something and its failure logged without stopping the next, and a close that waits for the
 * run under way. The work itself is the caller's.
 * @example const sweeps = new PeriodicRun({ intervalMs: 60_000, name: 'old files', run: () => sweep(), worthLogging: (r) => r.deleted > 0, logger });
 */
export class PeriodicRun<T extends object> {
  readonly #options: PeriodicRunOptions<T>;
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<T> | undefined;
  #closed = false;

  constructor(options: PeriodicRunOptions<T>) {
    if (!Number.isInteger(options.intervalMs) || options.intervalMs <= 0) throw new TypeError(`${options.name}: intervalMs must be a positive integer`);
    this.#options = options;
  }

  /** True once closed: a run under way stops at its next step. */
  get closed(): boolean {
    return this.#closed;
  }

  /** Schedules runs every `intervalMs`. */
  start(): void {
    if (this.#closed || this.#timer) return;
    this.#schedule();
  }

  /** Stops the timer and waits for the run under way, if any. */
  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    await this.#running?.catch(() => undefined);
  }

  /** Runs now; a call while a run is under way shares it. */
  runOnce(): Promise<T> {
    this.#running ??= this.#options.run().finally(() => (this.#running = undefined));
    return this.#running;
  }

  #schedule(): void {
    this.#timer = setTimeout(() => void this.#tick(), this.#options.intervalMs);
    this.#timer.unref();
  }

  async #tick(): Promise<void> {
    const { name, logger, worthLogging } = this.#options;
    try {
      const result = await this.runOnce();
      const fields = { ...result } as Record<string, unknown>;
      if (worthLogging(result)) logger.info(fields, `swept ${name}`);
    } catch (error) {
      logger.error({ err: error }, `sweeping ${name} failed`);
    }
    if (!this.#closed) this.#schedule();
  }
}
