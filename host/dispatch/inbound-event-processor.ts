import type { ChannelSource, PlainInboundEvent } from '@bot-ai/api';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { ChannelRegistry } from '../channels/channel-registry.ts';
import type { ChannelCalls } from '../channels/calls/channel-calls.ts';
import type { MessageHistory } from '../conversations/message-history.ts';
import type { ConversationEntry } from '../conversations/conversation-entry.ts';
import type { SubscriberStore } from '../conversations/subscriber-store.ts';
import { isConflictAbort, isConnectionError, isUniqueViolationOf } from '../errors/postgres-errors.ts';
import { LiveOutbox, type LiveOutboxDeps } from '../outbox/live-outbox.ts';
import { OutboxRecords } from '../outbox/outbox-records.ts';
import type { WorkflowDocument } from '../workflows/document/workflow-document.ts';
import type { RunInput } from '../workflows/runtime/action.ts';
import { describeStepError } from '../workflows/runtime/describe-step-error.ts';
import type { RunEnd } from '../workflows/runtime/run-end-sql.ts';
import type { RunStartRow } from '../workflows/runtime/run-records.ts';
import type { WorkflowRunner } from '../workflows/runtime/workflow-runner.ts';
import type { AttemptOutcome } from '../metrics/host-metrics.ts';
import { ClaimHeartbeat } from './claim-heartbeat.ts';
import type { SourceCache } from '../sources/source-cache.ts';
import type { WorkflowVersionCache } from '../workflows/storage/workflow-version-cache.ts';
import { eventSourceOf, ONE_RUNNING_PER_CONVERSATION, type ClaimedEvent, type InboundEventStatus } from './claimed-event.ts';
import { finishInboundEvents, type EventOutcome, type FinishResult } from './finish-inbound-events.ts';
import { fireTyping } from './fire-typing.ts';
import { logFailedAttempt } from './log-failed-attempt.ts';

/** The document of a workflow version (which version is current comes from `workflowVersions`). */
export interface WorkflowVersionSource {
  versionDocument(workflowId: string, version: number): Promise<WorkflowDocument>;
}

export interface InboundEventProcessorDeps {
  db: Knex;
  channels: ChannelRegistry<ChannelCalls>;
  workflows: WorkflowVersionSource;
  /** The event's source, by id: read from memory, forgotten on every instance when the source changes. */
  sources: Pick<SourceCache, 'getById' | 'forget'>;
  /** Which version of a workflow is current: read from memory, forgotten on every instance when the workflow changes. */
  workflowVersions: Pick<WorkflowVersionCache, 'currentVersion' | 'forget'>;
  subscribers: SubscriberStore;
  conversations: ConversationEntry;
  history: MessageHistory;
  runner: WorkflowRunner;
  /** What every LiveOutbox needs but the records, which the processor shares among its runs. */
  outbox: Omit<LiveOutboxDeps, 'records' | 'retryAfterMaxMs'>;
  /** Removes a run's run-scope memory (the memory store's endRun). */
  endRunMemory(runId: string): Promise<unknown>;
  /**
   * How long a claim holds (BOT_DISPATCH_LEASE_MS): an event `running` under a younger claim is
   * being processed by a live instance, and only an older one may be taken over.
   */
  claimTimeoutMs: number;
  /** Attempts an event gets (BOT_DISPATCH_MAX_ATTEMPTS); its last failure makes it a dead letter. */
  maxAttempts: number;
  /** Counts each attempt's outcome (metrics). */
  countAttempt?: (outcome: AttemptOutcome) => void;
  /**
   * Takes the files of an attachment message into the host before its workflow runs (the
   * attachment intake); without it, such a message runs as it was decoded.
   */
  attachments?: { intake(event: PlainInboundEvent, context: { inboundEventId: string; source: ChannelSource & { channel: string } }): Promise<PlainInboundEvent> };
  logger: Logger;
}

/** The attempt's outcome before it is recorded. */
interface AttemptResult {
  status: Exclude<InboundEventStatus, 'running'>;
  reason: string | null;
  error?: unknown;
  /** The attempt's run, to be ended with the event's outcome. */
  run?: RunEnd | undefined;
}

const ABANDONED_LAST_ATTEMPT = 'BOT_ERR_INBOUND_EVENT_ABANDONED: the host stopped during the last attempt';

/** A failed run: the event is tried again later (with backoff), up to its last attempt. */
export class RunFailedError extends Error {
  readonly code: string;
  /** The wait the platform asked for (Retry-After), honoured instead of the event's own backoff. */
  readonly retryAfterMs: number | undefined;

  constructor(code: string, message: string, options?: { cause?: unknown; retryAfterMs?: number | undefined }) {
    super(message, options);
    this.name = 'RunFailedError';
    this.code = code;
    this.retryAfterMs = options?.retryAfterMs;
  }
}

/** What became of an attempt, for the dispatcher. */
export interface ProcessResult {
  /** The conversation's next event, claimed for this instance in the statement that recorded this one: run it next. */
  next: ClaimedEvent | undefined;
  /** Set when the event waits for a retry: in how long it is due. */
  retryInMs: number | undefined;
}

/** A Retry-After is honoured up to an hour; a platform asking for longer is tried again after one. */
const MAX_RETRY_AFTER_MS = 3_600_000;

/**
 * The wait before the attempt after `attempts` failed ones: e^attempts seconds, as graphile-worker
 * waited before (2.7 s, 7.4 s, 20 s, 55 s …: about 29 minutes from the first attempt to the eighth), at most e^10 s.
 */
function retryBackoffMs(attempts: number): number {
  return Math.round(Math.exp(Math.min(Math.max(attempts, 1), 10)) * 1000);
}

/** How long recording an outcome is tried again while the database is away, at most. */
const FINISH_RETRY_DELAY_MS = 250;
const MAX_FINISH_RETRY_DELAY_MS = 4_000;

/**
 * Takes one claimed inbound event to its end (after intake stored it, before the next is claimed): checks the run rules
 * (active source, a workflow from the URL or the source's default, a sender), finds or creates
 * the subscriber, resolves the thread, records the inbound message and runs the workflow. An
 * event that must not run is marked `skipped` with the reason; a failed run leaves the event
 * queued for a retry with backoff (its conversation's later events wait behind it), and its last
 * attempt marks it `failed` (a dead letter) instead. The outcome is recorded only while this
 * attempt holds the claim, so an instance wrongly thought dead cannot overwrite a newer attempt's.
 */
export class InboundEventProcessor {
  readonly #outboxRecords: OutboxRecords;
  /** Outcomes recorded, batched across the events in flight, each handing on its conversation's next event. */
  readonly #finishes: ReturnType<typeof finishInboundEvents>;
  /** Renews the claims of the events this instance runs, every third of the claim timeout. */
  readonly #heartbeat: ClaimHeartbeat;

  /** A platform's Retry-After up to 10 s, and a third of the claim timeout, is waited for within the run. */
  readonly #retryAfterMaxMs: number;

  constructor(private readonly deps: InboundEventProcessorDeps) {
    this.#retryAfterMaxMs = Math.min(10_000, Math.floor(deps.claimTimeoutMs / 3));
    this.#outboxRecords = new OutboxRecords(deps.db);
    this.#heartbeat = new ClaimHeartbeat(deps.db, Math.max(50, Math.floor(deps.claimTimeoutMs / 3)), deps.logger);
    this.#finishes = finishInboundEvents(deps.db);
  }

  /**
   * One attempt at a claimed event, then its outcome recorded. With `handoff` (or when it says so
   * once the run has ended), the statement that records it also claims the conversation's next
   * event for this instance (returned as `next`).
   * Throws only when the outcome could not be recorded at all (the database stayed away for a
   * whole claim timeout): the claim then runs out and any instance takes the event over.
   */
  async process(row: ClaimedEvent, { handoff }: { handoff: boolean | (() => boolean) }): Promise<ProcessResult> {
    if (row.attempts > this.deps.maxAttempts) {
      // Claimed again after the host running its last attempt died: no attempt is left.
      return this.#record(row, { status: 'failed', reason: ABANDONED_LAST_ATTEMPT }, handoff);
    }
    // A dead host's runs of this event were ended by the claim; nobody else removes their run-scope memory.
    for (const runId of row.abandoned_run_ids) await this.deps.endRunMemory(runId);
    // Held until the outcome is recorded: the run's end (its replies' `sent` marks among it) is
    // written with it, and no other instance may take the event over before.
    this.#heartbeat.hold(row.id, row.claim_token);
    try {
      let outcome: AttemptResult;
      try {
        outcome = await this.#run(row);
      } catch (error) {
        outcome = this.#failed(row, error);
      }
      return await this.#record(row, outcome, handoff);
    } finally {
      this.#heartbeat.release(row.id);
    }
  }

  /** Records the attempt's outcome (a failure's with when to try again), then reports it. */
  async #record(row: ClaimedEvent, outcome: AttemptResult, handoff: boolean | (() => boolean)): Promise<ProcessResult> {
    const retryAfterMs = (outcome.error as { retryAfterMs?: number } | undefined)?.retryAfterMs;
    const retryInMs = outcome.status === 'queued' ? (retryAfterMs === undefined ? retryBackoffMs(row.attempts) : Math.min(retryAfterMs, MAX_RETRY_AFTER_MS)) : undefined;
    const result = await this.#finish({
      id: row.id,
      claim_token: row.claim_token,
      status: outcome.status,
      reason: outcome.reason,
      retryInMs: retryInMs ?? null,
      handoff: typeof handoff === 'function' ? handoff() : handoff,
      run: outcome.run,
    });
    if (!result.recorded) {
      this.deps.logger.warn({ inboundEventId: row.id, status: outcome.status }, 'an attempt lost its claim on the event; its outcome is not recorded');
    }
    this.#report(row, outcome, retryAfterMs);
    return { next: result.next, retryInMs: result.recorded ? retryInMs : undefined };
  }

  /** A failed attempt: tried again later, or a dead letter after the last attempt. */
  #failed(row: ClaimedEvent, error: unknown, run?: RunEnd): AttemptResult {
    const { code, message } = describeStepError(error);
    return { status: row.attempts >= this.deps.maxAttempts ? 'failed' : 'queued', reason: `${code}: ${message}`, error, run };
  }

  #report(row: ClaimedEvent, outcome: AttemptResult, retryAfterMs: number | undefined): void {
    const inboundEventId = row.id;
    this.deps.countAttempt?.(outcome.status === 'queued' ? (retryAfterMs === undefined ? 'retry' : 'retry_after') : outcome.status);
    if (outcome.status === 'skipped') {
      // Nothing answers a skipped event: say why where an operator looks.
      this.deps.logger.warn({ inboundEventId, reason: outcome.reason }, 'inbound event skipped: no workflow runs for it');
    }
    const attempt = { number: row.attempts, maxAttempts: this.deps.maxAttempts };
    if (outcome.status === 'queued') logFailedAttempt(this.deps.logger, inboundEventId, outcome.error, attempt);
    if (outcome.status === 'failed') {
      const code = outcome.error === undefined ? 'BOT_ERR_INBOUND_EVENT_ABANDONED' : describeStepError(outcome.error).code;
      this.deps.logger.error({ inboundEventId, code, attempts: row.attempts }, 'inbound event failed for good; kept as a dead letter');
    }
  }

  /**
   * Records the outcome, trying again while the database is away: the run's work is done and its
   * outcome known, so it is kept rather than run again. Gives up after a claim timeout, when
   * another instance may have taken the event over anyway.
   */
  async #finish(outcome: EventOutcome): Promise<FinishResult> {
    const giveUpAt = Date.now() + this.deps.claimTimeoutMs;
    for (let delayMs = FINISH_RETRY_DELAY_MS; ; delayMs = Math.min(delayMs * 2, MAX_FINISH_RETRY_DELAY_MS)) {
      try {
        return await this.#finishes.submit(outcome);
      } catch (error) {
        // The conversation's next event went to another instance meanwhile: record without handing on.
        if (outcome.handoff && isUniqueViolationOf(error, ONE_RUNNING_PER_CONVERSATION)) {
          outcome = { ...outcome, handoff: false };
          continue;
        }
        // Aborted to break a lock cycle: nothing of it was kept, and the same statement may pass.
        if (isConflictAbort(error) && Date.now() + delayMs <= giveUpAt) {
          this.deps.logger.warn({ err: error, inboundEventId: outcome.id }, 'recording an inbound event\'s outcome was aborted by a lock conflict; trying again');
          await new Promise((resolve) => setTimeout(resolve, delayMs));
          continue;
        }
        // The run's end was refused for its data: the event's outcome matters more. First without
        // the last step (and its replies' marks), then without the run, which stays `running`.
        if (outcome.run && !isConnectionError(error)) {
          const withoutStep = outcome.run.lastStep !== undefined;
          this.deps.logger.error({ err: error, inboundEventId: outcome.id, runId: outcome.run.runId }, withoutStep ? 'could not record a run\'s last step; ending the run without it' : 'could not record a run\'s end; recording its event\'s outcome without it');
          outcome = { ...outcome, run: withoutStep ? { ...outcome.run, lastStep: undefined } : undefined };
          continue;
        }
        if (!isConnectionError(error) || Date.now() + delayMs > giveUpAt) throw error;
        this.deps.logger.warn({ err: error, inboundEventId: outcome.id }, 'could not record an inbound event\'s outcome; trying again');
        await new Promise((resolve) => setTimeout(resolve, delayMs));
      }
    }
  }

  async #run(row: ClaimedEvent): Promise<AttemptResult> {
    // From memory, not from the claim: both caches drop a row when any instance's write of it
    // commits (NOTIFY), so a change made elsewhere counts here once its notice has arrived. A skip
    // is final, so one decided on a cached row is confirmed against the database first: a notice
    // still on its way (or lost with a listener's connection) never drops an event for good.
    let found = await this.deps.sources.getById(row.source_id);
    const skipsFor = (candidate: typeof found) => !candidate?.active || !(row.workflow_id ?? candidate.default_workflow_id);
    if (found && skipsFor(found)) {
      this.deps.sources.forget(found.ref);
      found = await this.deps.sources.getById(row.source_id);
    }
    if (!found) return { status: 'skipped', reason: 'source deleted' };
    const source = eventSourceOf(found);
    if (!source.active) return { status: 'skipped', reason: 'source inactive' };
    const workflowId = row.workflow_id ?? source.default_workflow_id;
    if (!workflowId) return { status: 'skipped', reason: 'no workflow: none in the URL and no default on the source' };
    if (!row.sender_foreign_id) return { status: 'skipped', reason: 'no sender foreign id' };
    let workflowVersion = await this.deps.workflowVersions.currentVersion(workflowId);
    if (workflowVersion === 'none') {
      this.deps.workflowVersions.forget(workflowId);
      workflowVersion = await this.deps.workflowVersions.currentVersion(workflowId);
    }
    if (workflowVersion === 'none') return { status: 'skipped', reason: `workflow ${workflowId} does not exist` };
    const document = await this.deps.workflows.versionDocument(workflowId, workflowVersion);

    // Not awaited, and first: the run starts at once whatever the indicator does, and the
    // subscriber sees it while the files are fetched and the subscriber is looked up.
    fireTyping(this.deps.channels, this.deps.logger, { channel: source.channel, event: row.event, source, inboundEventId: row.id });
    // Before the message is recorded and the workflow sees it: the files are the host's by then.
    const event = (await this.deps.attachments?.intake(row.event, { inboundEventId: row.id, source })) ?? row.event;
    const senderForeignId = row.sender_foreign_id;
    const arrival = { sourceId: source.id, senderForeignId, inboundEventId: row.id, message: event.message };
    // The run starts in the statement that enters the conversation, and reads the memory of the
    // subscriber the claim found meanwhile (again, should entering find another).
    let threadId: string | undefined;
    const start = async (run: RunStartRow) => {
      let entered = await this.deps.conversations.enter({ ...arrival, run });
      if (!entered) {
        // A new sender: the channel describes them (in its sandbox) once, then the event enters.
        await this.deps.subscribers.findOrCreate(source.id, senderForeignId, () =>
          this.deps.channels.call(source.channel, (sandbox) => sandbox.subscriberData(event, source)),
        );
        entered = await this.deps.conversations.enter({ ...arrival, run });
        if (!entered) throw new RunFailedError('BOT_ERR_INBOUND_EVENT_BUSY', 'The new subscriber was deleted at once; trying again later');
      }
      const { subscriber } = entered;
      threadId = entered.threadId;
      return {
        ownerId: subscriber.id,
        threadId,
        context: {
          subscriber: { id: subscriber.id, foreignId: subscriber.foreignId, firstName: subscriber.firstName, lastName: subscriber.lastName },
          source: { id: source.id, name: source.name, channel: source.channel },
        },
      };
    };

    const result = await this.deps.runner.run({
      workflowId,
      workflowVersion,
      document,
      reuseEarlierSteps: row.has_earlier_runs,
      starter: { expectedOwnerId: row.subscriber_id ?? undefined, start },
      mode: 'live',
      input: toRunInput(event),
      sourceId: source.id,
      inboundEventId: row.id,
      outboxFor: (position, run) =>
        new LiveOutbox({ ...this.deps.outbox, records: this.#outboxRecords, retryAfterMaxMs: this.#retryAfterMaxMs }, { runId: run.runId, inboundEventId: row.id, event, source, threadId: run.threadId!, position }),
      // Read by a step, so after the run started in its thread.
      history: { recent: (limit) => this.deps.history.recent(threadId!, limit) },
      deferEnd: true,
    });
    if (result.status === 'failed') {
      const error = new RunFailedError(result.error?.code ?? 'BOT_ERR_WORKFLOW_STEP_FAILED', result.error?.message ?? 'the run failed', { retryAfterMs: result.error?.retryAfterMs });
      return this.#failed(row, error, result.end);
    }
    return { status: 'done', reason: null, run: result.end };
  }
}

/**
 * `$input`: the message as workflows read it. An attachment message's files are in
 * `attachments` (`{ kind, url?, platformId?, name?, mimeType? }`), each `url` the host's own link.
 */
export function toRunInput(event: PlainInboundEvent): RunInput {
  const message = event.message;
  const data = (message?.data ?? {}) as { text?: string; payload?: unknown; attachments?: unknown; location?: unknown };
  return {
    message_type: message?.type ?? 'event',
    ...(data.text === undefined ? {} : { text: data.text }),
    ...(data.payload === undefined ? {} : { payload: data.payload }),
    ...(data.attachments === undefined ? {} : { attachments: data.attachments }),
    ...(data.location === undefined ? {} : { location: data.location }),
    event_id: event.eventId,
    channel: event.channelName,
    sender_id: event.senderForeignId ?? null,
    occurred_at: event.occurredAt,
  };
}
