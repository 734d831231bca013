/** A clock tests move by hand, so TTL and expiry behaviour needs no sleeping. */
export class TestClock {
  #nowMs: number;

  constructor(start: Date | string = new Date()) {
    this.#nowMs = new Date(start).getTime();
  }

  /** Pass as the `now` dependency. */
  readonly now = (): Date => new Date(this.#nowMs);

  advance(ms: number): void {
    this.#nowMs += ms;
  }
}
