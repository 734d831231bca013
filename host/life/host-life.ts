import type { Logger } from 'pino';

/** A started part of the host, as its life keeps it: how to stop it. */
interface StartedPart {
  name: string;
  stop: () => Promise<void>;
}

/**
 * The host's parts, started in order and stopped in reverse, the way koa unwinds its middleware:
 * what starts later may use what started before it, so it stops first. Each part is one call,
 * `start(name, start, stop)`, where the reader sees it start, instead of closers pushed to the
 * front of a list with comments keeping their order.
 *
 * A part started while the host stops (start-up still running in the background) is stopped in
 * its turn: `stop()` takes parts off the top until none is left.
 *
 * @example
 * const db = await life.start('database pool', () => createKnex(options), (db) => db.destroy());
 * await life.stop(); // … then 'database pool'
 */
export class HostLife {
  readonly #started: StartedPart[] = [];

  constructor(private readonly logger: Logger) {}

  /** Runs `start` and records `stop` (given what `start` returned) to run at shutdown. */
  async start<T>(name: string, start: () => T | Promise<T>, stop: (started: T) => void | Promise<void>): Promise<T> {
    const started = await start();
    this.#started.push({ name, stop: async () => stop(started) });
    return started;
  }

  /** The started parts' names, in the order they stop. */
  stopOrder(): string[] {
    return this.#started.map(({ name }) => name).reverse();
  }

  /** Stops every started part, last started first; a part that fails to stop is logged, the rest still stop. */
  async stop(): Promise<void> {
    for (let part = this.#started.pop(); part; part = this.#started.pop()) {
      try {
        await part.stop();
        this.logger.debug({ part: part.name }, 'stopped');
      } catch (error) {
        this.logger.error({ err: error, part: part.name }, 'error while shutting down');
      }
    }
  }
}
