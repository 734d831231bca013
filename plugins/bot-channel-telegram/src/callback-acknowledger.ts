/** How many answered button presses are remembered (a bounded memory: oldest forgotten first). */
const DEFAULT_CAPACITY = 10_000;

/**
 * Remembers which button presses (`callback_query.id`) were already acknowledged, so that only
 * the first reply to a press calls `answerCallbackQuery`. Telegram shows a progress spinner on
 * the button until the press is answered. Lost on a runner restart, which only costs one more
 * (ignored) answer; ids are unique across bots, so one instance serves every source.
 * @example if (acknowledger.claim(query.id)) await answerCallbackQuery(query.id);
 */
export class CallbackAcknowledger {
  readonly #claimed = new Set<string>();

  constructor(readonly capacity = DEFAULT_CAPACITY) {}

  /** True the first time `callbackQueryId` is claimed, false afterwards. */
  claim(callbackQueryId: string): boolean {
    if (this.#claimed.has(callbackQueryId)) return false;
    this.#claimed.add(callbackQueryId);
    // A Set iterates in insertion order: the first entry is the oldest.
    if (this.#claimed.size > this.capacity) this.#claimed.delete(this.#claimed.values().next().value!);
    return true;
  }
}
