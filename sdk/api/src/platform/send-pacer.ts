/**
 * Spaces sends to one chat by at least `minIntervalMs`, for platforms that publish a per-chat
 * limit (Telegram: about one message a second per chat). It paces the sends of one runner
 * process; when several hosts answer one chat, the platform's 429 and its retry delay take over.
 * Keys are forgotten once their interval has passed, so the map stays as small as the chats
 * being answered right now.
 * @example
 * const pacer = new SendPacer(1_000);
 * await pacer.wait(chatId); // resolves at once, or when the chat's interval has passed
 */
export class SendPacer {
  readonly #minIntervalMs: number;
  readonly #now: () => number;
  readonly #sleep: (ms: number) => Promise<void>;
  /** When each chat may next be sent to, in ms since the epoch. */
  readonly #nextAt = new Map<string, number>();

  constructor(minIntervalMs: number, clock: { now?: () => number; sleep?: (ms: number) => Promise<void> } = {}) {
    this.#minIntervalMs = minIntervalMs;
    this.#now = clock.now ?? Date.now;
    this.#sleep = clock.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
  }

  /** Waits until `key` may be sent to, and books the slot after it. */
  async wait(key: string): Promise<void> {
    const now = this.#now();
    this.#forgetPast(now);
    const at = Math.max(now, this.#nextAt.get(key) ?? 0);
    this.#nextAt.set(key, at + this.#minIntervalMs);
    if (at > now) await this.#sleep(at - now);
  }

  #forgetPast(now: number): void {
    for (const [key, at] of this.#nextAt) if (at <= now) this.#nextAt.delete(key);
  }
}
