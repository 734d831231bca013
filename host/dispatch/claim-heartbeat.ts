import type { Knex } from 'knex';
import type { Logger } from 'pino';

/**
 * Keeps the claims of this instance's running events fresh: every `intervalMs` one statement
 * moves their `claimed_at` to now (only while the token is still theirs). A run may then outlast
 * the claim timeout (a slow model call) without another instance taking its event over; a claim
 * stops being renewed only when its instance stops (dies or stalls), which is when a takeover is
 * wanted. The timer runs only while claims are held.
 */
export class ClaimHeartbeat {
  readonly #held = new Map<string, string>();
  #timer: NodeJS.Timeout | undefined;
  #beating: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Knex,
    private readonly intervalMs: number,
    private readonly logger: Pick<Logger, 'warn'>,
  ) {
    if (!Number.isInteger(intervalMs) || intervalMs <= 0) throw new RangeError(`intervalMs must be a positive integer, got ${intervalMs}`);
  }

  /** Renews the claim `token` on event `id` until released. */
  hold(id: string, token: string): void {
    this.#held.set(id, token);
    if (this.#timer) return;
    this.#timer = setInterval(() => {
      this.#beating = this.#beating.then(() => this.beat());
    }, this.intervalMs);
    this.#timer.unref();
  }

  release(id: string): void {
    this.#held.delete(id);
    if (this.#held.size > 0 || !this.#timer) return;
    clearInterval(this.#timer);
    this.#timer = undefined;
  }

  /**
   * Resolves once the renewals already started have finished: one in flight when a claim is
   * released still writes its `claimed_at` after the release.
   */
  settled(): Promise<void> {
    return this.#beating;
  }

  /** Renews every held claim now; a failure is logged and the next beat tries again. */
  async beat(): Promise<void> {
    if (this.#held.size === 0) return;
    const ids = [...this.#held.keys()];
    const tokens = ids.map((id) => this.#held.get(id)!);
    try {
      // SKIP LOCKED: a row locked now is being finished by the statement that ends its claim, and a
      // renewal waiting for it (holding the rows renewed so far) could close a lock cycle with a
      // group of finishes taking the same rows in another order. It is renewed at the next beat.
      // NO KEY UPDATE, which is all a `claimed_at` change needs, does not skip rows that inserts
      // referring to the event (its run, its replies) merely key-share lock.
      await this.db.raw(
        `UPDATE inbound_events AS e SET claimed_at = now()
         FROM (SELECT e.id FROM inbound_events AS e
                 JOIN unnest(?::uuid[], ?::uuid[]) AS held(id, token) ON held.id = e.id AND held.token = e.claim_token
                WHERE e.id = ANY(?::uuid[]) AND e.status = 'running'
                ORDER BY e.id FOR NO KEY UPDATE OF e SKIP LOCKED) AS renewable
         WHERE e.id = renewable.id`,
        [ids, tokens, ids],
      );
    } catch (error) {
      this.logger.warn({ err: error, claims: ids.length }, 'could not renew the claims of running events; trying again');
    }
  }
}
