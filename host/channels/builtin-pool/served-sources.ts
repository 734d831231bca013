/**
 * The sources a channel's calls in flight serve, as the host sent them, counted: with two calls
 * for one source, that source stays served until both have ended. The host threads' bridge
 * (expose-host-bridge.ts) cannot tell which call a worker's service request belongs to, so a
 * request may act for any of these and for no other source; a runner's requests are tied to their
 * exact call instead (runner-process.ts).
 * @example const leave = served.enter(source.id); try { await call(); } finally { leave(); }
 */
export class ServedSources {
  readonly #counts = new Map<string, number>();

  /** Counts `sourceId` as served until the returned function is called (once). */
  enter(sourceId: string | undefined): () => void {
    if (sourceId === undefined) return () => {};
    this.#counts.set(sourceId, (this.#counts.get(sourceId) ?? 0) + 1);
    let left = false;
    return () => {
      if (left) return;
      left = true;
      const count = (this.#counts.get(sourceId) ?? 1) - 1;
      if (count > 0) this.#counts.set(sourceId, count);
      else this.#counts.delete(sourceId);
    };
  }

  /** Whether a call in flight serves `sourceId`. */
  has(sourceId: unknown): boolean {
    return typeof sourceId === 'string' && this.#counts.has(sourceId);
  }
}
