/**
 * At most `perSecond` lines a second pass; the others are counted, and once the second they fell
 * in is over, `onDropped` hears how many (one call, however many were dropped). A runner's output
 * goes to the host's log through one: a plugin cannot flood that log.
 *
 * @example
 * const limit = new LineRateLimit(200, (count) => logger.warn({}, `${count} lines dropped`));
 * if (limit.allow()) logger.info({}, line);
 */
export class LineRateLimit {
  static readonly WINDOW_MS = 1_000;
  readonly #perSecond: number;
  readonly #onDropped: (count: number) => void;
  readonly #now: () => number;
  #windowStart = -Infinity;
  #passed = 0;
  #dropped = 0;
  #report: NodeJS.Timeout | undefined;

  /** `now`: a clock in ms; the default is monotonic, so a change of the wall clock does not stall it. */
  constructor(perSecond: number, onDropped: (count: number) => void, now: () => number = () => performance.now()) {
    if (!Number.isInteger(perSecond) || perSecond < 1) throw new RangeError(`perSecond must be a positive integer, got ${perSecond}`);
    this.#perSecond = perSecond;
    this.#onDropped = onDropped;
    this.#now = now;
  }

  /** Whether this line may pass; a line that may not is counted as dropped. */
  allow(): boolean {
    const now = this.#now();
    if (now - this.#windowStart >= LineRateLimit.WINDOW_MS) {
      // The count of the last window comes before the new window's lines.
      this.#reportDropped();
      this.#windowStart = now;
      this.#passed = 0;
    }
    if (this.#passed < this.#perSecond) {
      this.#passed++;
      return true;
    }
    this.#dropped++;
    this.#report ??= setTimeout(() => this.#reportDropped(), this.#windowStart + LineRateLimit.WINDOW_MS - now).unref();
    return false;
  }

  /** Reports lines dropped and not yet reported, now. */
  close(): void {
    this.#reportDropped();
  }

  #reportDropped(): void {
    clearTimeout(this.#report);
    this.#report = undefined;
    const dropped = this.#dropped;
    this.#dropped = 0;
    if (dropped > 0) this.#onDropped(dropped);
  }
}
