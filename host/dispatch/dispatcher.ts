import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { PgListener } from '../db/pg-listener.ts';
import { isUniqueViolationOf } from '../errors/postgres-errors.ts';
import { claimConversationHeads, claimInboundEvents, type ClaimResult, type ConversationRef } from './claim-inbound-events.ts';
import { ONE_RUNNING_PER_CONVERSATION, type ClaimedEvent } from './claimed-event.ts';
import { INBOX_CHANNEL, readInboxNotice } from '../inbox/inbox-notice.ts';
import type { ProcessResult } from './inbound-event-processor.ts';

/**
 * Why events were claimed: `handoff` (the conversation's next event, claimed by the statement that
 * finished the one before), `notify` (new events announced), `released` (a conversation freed just
 * as a new event of it arrived), `slot` (a slot freed while more waited), `more` (the previous
 * claim was full), `start`, `reconnect` (notices may have been missed), `retry` (a retry this
 * instance scheduled fell due), `poll` (the periodic look for due retries and dead instances'
 * claims). Every event of a burst should come by the first five: a timer means it waited.
 */
export type ClaimTrigger = 'handoff' | 'notify' | 'released' | 'slot' | 'more' | 'start' | 'reconnect' | 'retry' | 'poll';

/** Triggers that are timers: an event they claim may have waited for one. */
const TIMERS: ReadonlySet<ClaimTrigger> = new Set(['retry', 'poll']);

export interface DispatcherOptions {
  db: Knex;
  /** Runs a claimed event; asks `handoff()` once the run has ended whether to claim the conversation's next event with its outcome. */
  processor: { process(row: ClaimedEvent, options: { handoff: () => boolean }): Promise<ProcessResult> };
  /** Events run at once by this instance (each of another conversation). */
  concurrency: number;
  /** How often to look for due retries and claims dead instances left (new events come by NOTIFY). */
  pollIntervalMs: number;
  /** A claim not renewed for this long is taken over (BOT_DISPATCH_LEASE_MS). */
  leaseMs: number;
  /** Counts each claimed event by what brought it (metrics). */
  countClaim?: (trigger: ClaimTrigger) => void;
  logger: Logger;
}

/** First wait before claiming again after a claim failed (the database is away); doubles up to the max. */
const CLAIM_RETRY_DELAY_MS = 250;
const MAX_CLAIM_RETRY_DELAY_MS = 5_000;
/** Events of one conversation run back to back in one slot before it goes back to the claim; see #runChain. */
const MAX_HANDOFFS = 16;
/** Announced event ids kept for the next claim at most; past it, the claim walks the whole inbox. */
const MAX_ANNOUNCED_IDS = 10_000;
/** Retry times remembered at most; see #scheduleRetry. */
const MAX_RETRY_TIMES = 1_000;
/**
 * Under a backlog, a freed slot claims once this share of the slots is free (at least one), or
 * once SLOT_CLAIM_WAIT_MS passed since the first of them freed; see #slotFreed.
 */
const SLOT_CLAIM_SHARE = 8;
const SLOT_CLAIM_WAIT_MS = 10;

/**
 * The conversation dispatcher: claims inbound events straight from the
 * inbox and runs them, at most `concurrency` at once, at most one per conversation across all
 * instances, each conversation in arrival order.
 *
 * What wakes a claim: the inbox's NOTIFY at commit, a slot freed while more events waited, a
 * retry this instance scheduled, and, as the safety net, a poll every `pollIntervalMs` (due
 * retries of other instances, claims of dead instances, notices lost with the connection).
 * Claims do not overlap: a wake-up during a claim makes it claim once more after.
 * When an event ends, the statement recording it claims the conversation's next event, which
 * runs at once in the same slot: a burst in one conversation is answered back to back.
 */
export class Dispatcher {
  /** Events claimed, by what brought them; see ClaimTrigger. */
  readonly claimed: Record<ClaimTrigger, number> = { handoff: 0, notify: 0, released: 0, slot: 0, more: 0, start: 0, reconnect: 0, retry: 0, poll: 0 };

  #running = 0;
  readonly #chains = new Set<Promise<void>>();
  #claiming: Promise<void> | undefined;
  /** What asked for a claim while one ran: it claims again after. */
  #wanted: ClaimTrigger | undefined;
  /** The last claim filled every free slot: more may be waiting, so a freed slot claims again. */
  #saturated = false;
  #claimRetryDelayMs = CLAIM_RETRY_DELAY_MS;
  #claimRetryTimer: NodeJS.Timeout | undefined;
  #retryTimer: { at: number; timer: NodeJS.Timeout } | undefined;
  /** When the retries this instance scheduled fall due (ms since the epoch), earliest first. */
  readonly #retriesDue: number[] = [];
  #pollTimer: NodeJS.Timeout | undefined;
  #slotClaimTimer: NodeJS.Timeout | undefined;
  /** Notices received so far: a chain that ended while one arrived claims again (see #runChain). */
  #notices = 0;
  /** Events the notices named since the last claim, and conversations released since: see #claim. */
  readonly #announced = new Set<string>();
  readonly #released = new Map<string, ConversationRef>();
  /** The next claim walks the whole inbox (a notice named nothing, a timer, a freed slot with more waiting). */
  #walkWanted = false;
  #afterSourceId: string | null = null;
  readonly #cursors = new Map<string, string>();
  #listener: PgListener | undefined;
  #stopping = false;

  private constructor(private readonly options: DispatcherOptions) {
    if (!Number.isInteger(options.concurrency) || options.concurrency < 1) throw new RangeError(`concurrency must be a positive integer, got ${options.concurrency}`);
  }

  /** Listens for the inbox's notices, then claims what is waiting already. */
  static async start(options: DispatcherOptions): Promise<Dispatcher> {
    const dispatcher = new Dispatcher(options);
    dispatcher.#listener = new PgListener({
      db: options.db,
      channel: INBOX_CHANNEL,
      label: 'inbox',
      logger: options.logger,
      onNotice: (payload) => dispatcher.#noticed(payload),
      onReconnected: () => dispatcher.#wake('reconnect'),
    });
    await dispatcher.#listener.start();
    dispatcher.#pollTimer = setInterval(() => dispatcher.#wake('poll'), options.pollIntervalMs);
    dispatcher.#pollTimer.unref();
    dispatcher.#wake('start');
    return dispatcher;
  }

  /** Events running on this instance now. */
  get running(): number {
    return this.#running;
  }

  /**
   * Claims nothing more, waits for the events in flight (their conversations' next events are not
   * handed on), then stops listening. Events not claimed stay queued for any instance; when a run
   * ended meanwhile, a notice naming nothing tells every other instance to look now rather than
   * at its next poll (a rolling restart leaves no conversation waiting).
   */
  async stop(): Promise<void> {
    this.#stopping = true;
    clearInterval(this.#pollTimer);
    clearTimeout(this.#claimRetryTimer);
    clearTimeout(this.#slotClaimTimer);
    if (this.#retryTimer) clearTimeout(this.#retryTimer.timer);
    await this.#claiming;
    // Runs in flight now end without handing their conversations on.
    const leavesConversations = this.#chains.size > 0;
    while (this.#chains.size > 0) await Promise.all([...this.#chains]);
    if (leavesConversations) await this.#announceLeftConversations();
    await this.#listener?.close();
  }

  async #announceLeftConversations(): Promise<void> {
    try {
      await this.options.db.raw('SELECT pg_notify(?, ?)', [INBOX_CHANNEL, '']);
    } catch (error) {
      this.options.logger.warn({ err: error }, 'could not tell the other instances that this one stopped; they find its conversations\' next events at their next poll');
    }
  }

  #noticed(payload: string | undefined): void {
    this.#notices += 1;
    const announced = readInboxNotice(payload);
    if (announced === 'anything' || this.#announced.size + announced.length > MAX_ANNOUNCED_IDS) this.#walkWanted = true;
    else for (const id of announced) this.#announced.add(id);
    this.#wake('notify');
  }

  /**
   * One claim for `free` slots. Woken only by notices naming their events and by released
   * conversations, it claims the next event of just those conversations (a few index probes
   * each); otherwise it walks the whole inbox, fairly, which covers them too.
   */
  #claim(free: number): Promise<ClaimResult> {
    const ids = [...this.#announced];
    const released = [...this.#released.values()];
    this.#announced.clear();
    this.#released.clear();
    if (this.#walkWanted) {
      this.#walkWanted = false;
      return claimInboundEvents(this.options.db, { limit: free, leaseMs: this.options.leaseMs, afterSourceId: this.#afterSourceId, cursors: this.#cursors });
    }
    if (ids.length === 0 && released.length === 0) return Promise.resolve({ events: [], cursors: [] });
    return claimConversationHeads(this.options.db, ids, released, free).then((events) => ({ events, cursors: [] }));
  }

  #wake(trigger: ClaimTrigger): void {
    if (this.#stopping) return;
    if (trigger !== 'notify' && trigger !== 'released') this.#walkWanted = true;
    if (this.#claiming) {
      // The claim after is named for the first reason that is not a timer, if any.
      if (this.#wanted === undefined || (TIMERS.has(this.#wanted) && !TIMERS.has(trigger))) this.#wanted = trigger;
      return;
    }
    this.#claiming = this.#claimWhileWanted(trigger).finally(() => (this.#claiming = undefined));
  }

  async #claimWhileWanted(first: ClaimTrigger): Promise<void> {
    let trigger: ClaimTrigger | undefined = first;
    let lostRace = false;
    while (trigger !== undefined && !this.#stopping) {
      this.#wanted = undefined;
      const free = this.options.concurrency - this.#running;
      if (free <= 0) {
        // Every slot is busy: the next freed one claims.
        this.#saturated = true;
        return;
      }
      let result: ClaimResult;
      try {
        result = await this.#claim(free);
        this.#claimRetryDelayMs = CLAIM_RETRY_DELAY_MS;
      } catch (error) {
        // What it was asked for was taken off the lists: the next claim looks everywhere.
        this.#walkWanted = true;
        if (isUniqueViolationOf(error, ONE_RUNNING_PER_CONVERSATION) && !lostRace) {
          // Another instance's claim, committed while this one waited for it, took a conversation
          // this one picked (two of its deliveries committed out of order): nothing was claimed;
          // the next claim sees that conversation busy.
          this.options.logger.debug({ err: error }, 'a claim lost a conversation to another instance; claiming again');
          lostRace = true;
          continue;
        }
        this.options.logger.warn({ err: error }, 'could not claim inbound events (the database is away?); trying again');
        this.#scheduleClaimRetry();
        return;
      }
      lostRace = false;
      if (this.#stopping) {
        // Claimed while stopping: run them anyway (they are ours now), handing nothing on.
        for (const event of result.events) this.#startChain(event, trigger);
        return;
      }
      if (result.cursors.length > 0) this.#cursors.clear();
      let more = false;
      for (const cursor of result.cursors) {
        if (cursor.conversation !== null) this.#cursors.set(cursor.sourceId, cursor.conversation);
        more ||= cursor.more;
      }
      const last = result.events.at(-1);
      if (last) this.#afterSourceId = last.source_id;
      for (const event of result.events) this.#startChain(event, trigger);
      this.#saturated = result.events.length >= free || more;
      if (more) this.#walkWanted = true;
      trigger = this.#wanted ?? (more ? 'more' : undefined);
    }
  }

  #scheduleClaimRetry(): void {
    clearTimeout(this.#claimRetryTimer);
    this.#claimRetryTimer = setTimeout(() => this.#wake('poll'), this.#claimRetryDelayMs);
    this.#claimRetryTimer.unref();
    this.#claimRetryDelayMs = Math.min(this.#claimRetryDelayMs * 2, MAX_CLAIM_RETRY_DELAY_MS);
  }

  #startChain(event: ClaimedEvent, trigger: ClaimTrigger): void {
    this.#running += 1;
    const chain = this.#runChain(event, trigger).finally(() => this.#chains.delete(chain));
    this.#chains.add(chain);
  }

  /**
   * Runs the event, then each next event of its conversation handed on to it, in this one slot.
   * While events wait for a slot here (a claim found more than it had slots for), the slot goes
   * back to the fair claim instead, the conversation's next event with it to take its turn, once
   * new events were announced since the running one was claimed, and after MAX_HANDOFFS in a row
   * in any case: other sources and conversations wait at most one run per slot, however many
   * messages a flooded conversation still has queued.
   */
  async #runChain(first: ClaimedEvent, trigger: ClaimTrigger): Promise<void> {
    let event: ClaimedEvent | undefined = first;
    let last: ClaimedEvent = first;
    let by: ClaimTrigger = trigger;
    let handoffs = 0;
    let yielded = false;
    // Notices received when the running event was claimed, and when its outcome went to be recorded.
    let noticesAtClaim = this.#notices;
    let noticesAtFinish = this.#notices;
    // Asked when the run has ended, just before its outcome is recorded: notices that came during
    // the run count.
    const handoff = () => {
      noticesAtFinish = this.#notices;
      const othersWait = this.#saturated && noticesAtFinish !== noticesAtClaim;
      const allowed = !this.#stopping && handoffs < MAX_HANDOFFS && !othersWait;
      yielded = !allowed && !this.#stopping;
      return allowed;
    };
    while (event) {
      this.#count(by);
      last = event;
      let result: ProcessResult;
      try {
        result = await this.options.processor.process(event, { handoff });
      } catch (error) {
        // Its outcome could not be recorded; the claim runs out and any instance takes it over.
        this.options.logger.error({ err: error, inboundEventId: event.id }, 'an inbound event\'s outcome could not be recorded; it is taken over once its claim runs out');
        break;
      }
      if (result.retryInMs !== undefined) this.#scheduleRetry(result.retryInMs);
      noticesAtClaim = noticesAtFinish;
      event = result.next;
      by = 'handoff';
      handoffs += 1;
    }
    // The slot is free before anything claims for it.
    this.#running -= 1;
    if (this.#stopping) return;
    if (this.#saturated) return this.#slotFreed();
    // The conversation's next event, when it was not handed on: one the recording statement could
    // not see (committed while it ran: its notice arrived meanwhile, and the claim that notice
    // woke found the conversation still busy), or the one after MAX_HANDOFFS.
    if (yielded || this.#notices !== noticesAtFinish) {
      const conversation = last.sender_foreign_id ?? last.id;
      this.#released.set(`${last.source_id}/${conversation}`, { sourceId: last.source_id, conversation });
      this.#wake('released');
    }
  }

  /**
   * A slot freed while events wait: the claim that fills it walks the inbox, and a walk costs
   * about the same for one slot as for eight (it steps past the busy conversations either way).
   * So under a backlog slots are claimed for in groups: at once when a share of them is free,
   * else a few milliseconds after the first freed, when more have. A lone slot never waits.
   */
  #slotFreed(): void {
    const free = this.options.concurrency - this.#running;
    if (free >= Math.max(1, Math.floor(this.options.concurrency / SLOT_CLAIM_SHARE)) || this.#running === 0) {
      clearTimeout(this.#slotClaimTimer);
      this.#slotClaimTimer = undefined;
      return this.#wake('slot');
    }
    if (this.#slotClaimTimer) return;
    this.#slotClaimTimer = setTimeout(() => {
      this.#slotClaimTimer = undefined;
      this.#wake('slot');
    }, SLOT_CLAIM_WAIT_MS);
    this.#slotClaimTimer.unref();
  }

  #count(trigger: ClaimTrigger): void {
    this.claimed[trigger] += 1;
    this.options.countClaim?.(trigger);
  }

  /** Claims again when each retry this instance scheduled falls due (one timer, for the earliest). */
  #scheduleRetry(inMs: number): void {
    const at = Date.now() + inMs;
    // Bounded (a platform outage can leave thousands waiting): later ones are left to the poll.
    if (this.#retriesDue.length >= MAX_RETRY_TIMES && at > this.#retriesDue.at(-1)!) return;
    if (!this.#retriesDue.includes(at)) this.#retriesDue.push(at);
    this.#retriesDue.sort((a, b) => a - b);
    this.#retriesDue.length = Math.min(this.#retriesDue.length, MAX_RETRY_TIMES);
    this.#armRetryTimer();
  }

  #armRetryTimer(): void {
    const earliest = this.#retriesDue[0];
    if (earliest === undefined || this.#stopping) return;
    if (this.#retryTimer?.at === earliest) return;
    if (this.#retryTimer) clearTimeout(this.#retryTimer.timer);
    // A few milliseconds late: the claim compares with the database's clock.
    const timer = setTimeout(() => {
      this.#retryTimer = undefined;
      const now = Date.now();
      while (this.#retriesDue[0] !== undefined && this.#retriesDue[0] <= now) this.#retriesDue.shift();
      this.#wake('retry');
      this.#armRetryTimer();
    }, Math.max(0, earliest - Date.now()) + 5);
    timer.unref();
    this.#retryTimer = { at: earliest, timer };
  }
}
