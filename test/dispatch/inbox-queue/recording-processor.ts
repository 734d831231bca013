import type { Knex } from 'knex';
import type { ClaimedEvent } from '../../../host/dispatch/claimed-event.ts';
import { finishInboundEvents } from '../../../host/dispatch/finish-inbound-events.ts';
import type { ProcessResult } from '../../../host/dispatch/inbound-event-processor.ts';

/** One run of an event: when it started and ended, as steps of one order shared by every processor on the log. */
export interface Run {
  event: ClaimedEvent;
  /** Which processor ran it. */
  by: string;
  startedAt: number;
  endedAt: number | undefined;
}

/** The runs of one or more processors, in one order (a step counter, not a clock: the same whatever the machine's speed). */
export class RunLog {
  readonly runs: Run[] = [];
  /** Runs in the order their outcomes were recorded. */
  readonly finished: Run[] = [];
  #step = 0;
  #waiters: Array<() => void> = [];

  start(event: ClaimedEvent, by: string): Run {
    const run: Run = { event, by, startedAt: (this.#step += 1), endedAt: undefined };
    this.runs.push(run);
    return run;
  }

  end(run: Run): void {
    run.endedAt = this.#step += 1;
  }

  recorded(run: Run): void {
    this.finished.push(run);
    for (const wake of this.#waiters.splice(0)) wake();
  }

  /** Resolves once `done()` holds (checked after each recorded outcome); rejects after `timeoutMs`. */
  async waitFor(done: () => boolean, what: string, timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!done()) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out waiting for ${what} (${this.finished.length} runs recorded)`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(left, 1_000));
        this.#waiters.push(() => (clearTimeout(timer), resolve()));
      });
    }
  }
}

/**
 * A stand-in for the workflow run, not for the queue: each claimed event "runs" for `runMs`, is
 * logged, and its outcome is recorded as `done` by the real finish statement, which hands the
 * conversation's next event on exactly as InboundEventProcessor's does.
 */
export class RecordingProcessor {
  readonly #finishes: ReturnType<typeof finishInboundEvents>;

  constructor(
    db: Knex,
    private readonly options: { name: string; log: RunLog; runMs: () => number; leaseMs: number },
  ) {
    this.#finishes = finishInboundEvents(db);
  }

  /** `handoff` as InboundEventProcessor takes it: a flag, or asked once the run has ended. */
  async process(row: ClaimedEvent, { handoff }: { handoff: boolean | (() => boolean) }): Promise<ProcessResult> {
    const run = this.options.log.start(row, this.options.name);
    await new Promise((resolve) => setTimeout(resolve, this.options.runMs()));
    this.options.log.end(run);
    const handOn = typeof handoff === 'function' ? handoff() : handoff;
    const { recorded, next } = await this.#finishes.submit({ id: row.id, claim_token: row.claim_token, status: 'done', reason: null, retryInMs: null, handoff: handOn });
    if (!recorded) throw new Error(`the claim on ${row.id} was lost`);
    this.options.log.recorded(run);
    return { next, retryInMs: undefined };
  }
}
