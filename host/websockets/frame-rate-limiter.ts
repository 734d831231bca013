/**
 * A token bucket per socket: `burst` frames at once, then `perSecond` on average. Frames over
 * it get an error frame instead of a sandbox call and an INSERT.
 * @example const limiter = new FrameRateLimiter({ perSecond: 5, burst: 20 }); if (!limiter.take()) reject();
 */
export class FrameRateLimiter {
  readonly #perSecond: number;
  readonly #burst: number;
  readonly #now: () => number;
  #tokens: number;
  #updatedAt: number;

  constructor({ perSecond, burst, now = () => performance.now() }: { perSecond: number; burst: number; now?: () => number }) {
    if (!(perSecond > 0) || !(burst >= 1)) throw new RangeError('perSecond must be positive and burst at least 1');
    this.#perSecond = perSecond;
    this.#burst = burst;
    this.#now = now;
    this.#tokens = burst;
    this.#updatedAt = now();
  }

  /** Spends one frame's token; false when the bucket is empty. */
  take(): boolean {
    const now = this.#now();
    this.#tokens = Math.min(this.#burst, this.#tokens + ((now - this.#updatedAt) / 1000) * this.#perSecond);
    this.#updatedAt = now;
    if (this.#tokens < 1) return false;
    this.#tokens -= 1;
    return true;
  }
}
