/**
 * How much a runner may send its host unasked, and how the host keeps to it. Answers to the
 * host's own calls are bounded by those calls; everything else a runner writes (log lines,
 * service requests, and whatever plugin code writes to the wire itself) costs the host's one
 * thread a parse and a dispatch, and a plugin can write it as fast as memory copies: measured,
 * one runner flooding valid log frames kept the host's event loop 97% busy. Past the budget the
 * host stops reading that runner's wire until the debt is paid back: the runner's writes block,
 * so the flood slows its own channel only.
 */
export interface WireBudgetRates {
  /** Unasked messages a second (also the burst: a second's worth). */
  messagesPerSecond: number;
  /** Their bytes a second, frames included (also the burst). */
  bytesPerSecond: number;
}

/**
 * Far above what a busy channel sends unasked (a service request per reply sent, a few log
 * lines), far below what the host can parse: at this pace a flood costs the host a few percent
 * of a core.
 */
export const DEFAULT_WIRE_BUDGET: Readonly<WireBudgetRates> = Object.freeze({ messagesPerSecond: 10_000, bytesPerSecond: 32 * 1024 * 1024 });

/**
 * Two token buckets (messages, bytes) that refill continuously and may go into debt: one message
 * larger than a second's bytes is still read, and then paid for with a longer pause.
 * @example
 * const budget = new WireBudget(DEFAULT_WIRE_BUDGET);
 * budget.spend(frameBytes);
 * const pauseMs = budget.debtMs(); // 0 while within budget
 */
export class WireBudget {
  readonly #rates: WireBudgetRates;
  readonly #now: () => number;
  #messages: number;
  #bytes: number;
  #at: number;

  /** `now`: a clock in ms; the default is monotonic. */
  constructor(rates: WireBudgetRates, now: () => number = () => performance.now()) {
    if (!(rates.messagesPerSecond > 0 && rates.bytesPerSecond > 0)) throw new RangeError('a wire budget needs positive rates');
    this.#rates = rates;
    this.#now = now;
    this.#messages = rates.messagesPerSecond;
    this.#bytes = rates.bytesPerSecond;
    this.#at = now();
  }

  /** Spends one unasked message of `bytes`. */
  spend(bytes: number): void {
    this.#refill();
    this.#messages -= 1;
    this.#bytes -= bytes;
  }

  /** Milliseconds until neither bucket is in debt; 0 when none is. */
  debtMs(): number {
    this.#refill();
    const messagesMs = this.#messages < 0 ? (-this.#messages / this.#rates.messagesPerSecond) * 1000 : 0;
    const bytesMs = this.#bytes < 0 ? (-this.#bytes / this.#rates.bytesPerSecond) * 1000 : 0;
    return Math.ceil(Math.max(messagesMs, bytesMs));
  }

  #refill(): void {
    const now = this.#now();
    const seconds = Math.max(0, now - this.#at) / 1000;
    this.#at = now;
    this.#messages = Math.min(this.#rates.messagesPerSecond, this.#messages + seconds * this.#rates.messagesPerSecond);
    this.#bytes = Math.min(this.#rates.bytesPerSecond, this.#bytes + seconds * this.#rates.bytesPerSecond);
  }
}
