/**
 * How much of the host's one thread a runner's wire may take. Everything a runner sends costs
 * that thread a parse and a dispatch, and plugin code can write valid frames to the wire as
 * fast as memory copies: one runner flooding log frames kept the host's event loop 97% busy and
 * its other channels 30 times slower. The host times its parse and dispatch of each of a
 * runner's frames, each charged no more than its bytes could cost (a stall of the host's own
 * that falls in a small frame is not the runner's); a host service call is charged a little more,
 * for the work it starts, whose asynchronous part (an egress request and its answer) is not timed.
 * Past the budget, the host stops reading that wire until the time is paid back: the runner's
 * writes wait, and only its own channel slows. A busy honest channel spends a fraction of it: an
 * answer or a send costs the host some microseconds here.
 */
export interface WireBudgetRates {
  /** Milliseconds of the host's thread a second (also the burst: one second's worth). */
  hostMsPerSecond: number;
}

/** A quarter of a core: an honest channel at full load uses a fraction, a flood at most this. */
export const DEFAULT_WIRE_BUDGET: Readonly<WireBudgetRates> = Object.freeze({ hostMsPerSecond: 250 });

/**
 * The most one frame is charged, by its bytes: what parsing the costliest JSON shapes takes
 * (about 400 ms a MiB measured), plus a millisecond for its dispatch. Time past it is not the
 * frame's doing but a stall of the host's (a collection, a preemption, a blocked write to its
 * log) that merely fell in its handling.
 * @example frameChargeCeilingMs(200) // about 1.08
 */
export function frameChargeCeilingMs(bytes: number): number {
  return 1 + bytes * (400 / (1024 * 1024));
}

/**
 * A token bucket of host milliseconds that refills continuously and may go into debt: one
 * costly frame is still handled, and then paid for with a longer pause.
 * @example
 * const budget = new WireBudget(DEFAULT_WIRE_BUDGET);
 * budget.spend(elapsedMs);
 * const pauseMs = budget.debtMs(); // 0 while within budget
 */
export class WireBudget {
  readonly #perSecond: number;
  readonly #now: () => number;
  #left: number;
  #at: number;

  /** `now`: a clock in ms; the default is monotonic. */
  constructor(rates: WireBudgetRates, now: () => number = () => performance.now()) {
    if (!(rates.hostMsPerSecond > 0)) throw new RangeError('a wire budget needs a positive rate');
    this.#perSecond = rates.hostMsPerSecond;
    this.#now = now;
    this.#left = rates.hostMsPerSecond;
    this.#at = now();
  }

  /** Spends `ms` of the host's time. */
  spend(ms: number): void {
    this.#refill();
    this.#left -= ms;
  }

  /** Milliseconds until the bucket is out of debt; 0 when it is not in debt. */
  debtMs(): number {
    this.#refill();
    return this.#left < 0 ? Math.ceil((-this.#left / this.#perSecond) * 1000) : 0;
  }

  #refill(): void {
    const now = this.#now();
    this.#left = Math.min(this.#perSecond, this.#left + (Math.max(0, now - this.#at) / 1000) * this.#perSecond);
    this.#at = now;
  }
}

/** A readable stream the pace can hold back (the runner's wire). */
interface Pausable {
  pause(): void;
  resume(): void;
}

/** A runner held to its budget is reported at most this often. */
const HELD_BACK_REPORT_MS = 10_000;

/**
 * Keeps one runner's wire to its budget: past it, the wire is not read until the time is paid
 * back. The kernel's buffer fills and the runner's writes wait, so a flood slows its own channel
 * (whose answers queue behind it), not the host's thread. `onHeldBack` hears of it at most every
 * ten seconds.
 * @example
 * const pace = new WirePace(wire, DEFAULT_WIRE_BUDGET, (pauseMs) => logger.warn({ pauseMs }, 'held back'));
 * pace.spend(chargedMs); // after each read
 * pace.release(); // the runner is gone: read what is left at once
 */
export class WirePace {
  readonly #wire: Pausable;
  readonly #budget: WireBudget;
  readonly #onHeldBack: (pauseMs: number) => void;
  #resumeTimer: NodeJS.Timeout | undefined;
  #released = false;
  #reportedAt = -Infinity;

  constructor(wire: Pausable, rates: WireBudgetRates, onHeldBack: (pauseMs: number) => void) {
    this.#wire = wire;
    this.#budget = new WireBudget(rates);
    this.#onHeldBack = onHeldBack;
  }

  /** Spends `ms` of the host's time on this wire, and holds it back while the budget is in debt. */
  spend(ms: number): void {
    this.#budget.spend(ms);
    if (this.#resumeTimer !== undefined || this.#released) return;
    const pauseMs = this.#budget.debtMs();
    if (pauseMs === 0) return;
    this.#wire.pause();
    this.#resumeTimer = setTimeout(() => this.#resume(), pauseMs);
    const now = performance.now();
    if (now - this.#reportedAt < HELD_BACK_REPORT_MS) return;
    this.#reportedAt = now;
    this.#onHeldBack(pauseMs);
  }

  /** The runner is gone or being killed: what is left on its wire is read off at once, and never held back again. */
  release(): void {
    this.#released = true;
    this.#resume();
  }

  #resume(): void {
    if (this.#resumeTimer === undefined) return;
    clearTimeout(this.#resumeTimer);
    this.#resumeTimer = undefined;
    this.#wire.resume();
  }
}
