/**
 * What start-up still has to finish before the instance should get traffic. A part of start-up
 * that runs in the background (the plugins' discovery) holds readiness until it settles, or
 * until its deadline passes: a balancer must not send a platform's webhooks to an instance whose
 * channels are still loading (they would answer 404 or 503), but a plugin that never finishes
 * starting must not keep the instance out of rotation for ever either.
 *
 * With nothing held, the instance is ready: tests and tools that build the app without a
 * discovery in the background see the database checks only.
 *
 * @example
 * readiness.holdUntil('channels', discovered, config.BOT_SANDBOX_START_TIMEOUT_MS);
 * readiness.pending(); // ['channels'] until `discovered` settles or the deadline passes
 */
export class StartupReadiness {
  // One entry per hold, so a hold released late never releases a newer one of the same name.
  readonly #pending = new Map<symbol, string>();

  /** Holds readiness under `name` until `work` settles (either way) or `deadlineMs` has passed. */
  holdUntil(name: string, work: Promise<unknown>, deadlineMs: number): void {
    const hold = Symbol(name);
    this.#pending.set(hold, name);
    const release = () => {
      clearTimeout(timer);
      this.#pending.delete(hold);
    };
    const timer = setTimeout(release, deadlineMs);
    // The deadline alone must not keep a stopping process alive.
    timer.unref();
    work.then(release, release);
  }

  /** The names still held, in the order they were held. */
  pending(): string[] {
    return [...this.#pending.values()];
  }
}
