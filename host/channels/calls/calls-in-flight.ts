/**
 * The calls a channel's runner or thread pool has in flight, so that closing it can wait for them
 * (each is bounded by its own time limit) before stopping what runs them.
 * @example const value = await inFlight.track(call); … await inFlight.drained();
 */
export class CallsInFlight {
  readonly #calls = new Set<Promise<unknown>>();

  get size(): number {
    return this.#calls.size;
  }

  /** Counts `call` as in flight until it settles, and resolves or rejects as it does. */
  async track<T>(call: Promise<T>): Promise<T> {
    this.#calls.add(call);
    try {
      return await call;
    } finally {
      this.#calls.delete(call);
    }
  }

  /** Settles once every call in flight now has settled, whatever its outcome. */
  drained(): Promise<unknown> {
    return Promise.allSettled([...this.#calls]);
  }
}
