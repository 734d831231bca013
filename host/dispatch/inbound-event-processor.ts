import type { PlainInboundEvent } from '@bot-ai/api';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { ChannelRegistry } from '../channels/channel-registry.ts';
import type { ChannelSandbox } from '../channels/sandbox/channel-sandbox.ts';
import type { MessageHistory } from '../conversations/message-history.ts';
import type { SubscriberStore } from '../conversations/subscriber-store.ts';
import type { ThreadStore } from '../conversations/thread-store.ts';
import { LiveOutbox, type LiveOutboxDeps } from '../outbox/live-outbox.ts';
import type { SourceRow } from '../sources/source.ts';
import type { WorkflowDocument } from '../workflows/document/workflow-document.ts';
import type { RunInput } from '../workflows/runtime/action.ts';
import { describeError } from '../workflows/runtime/describe-error.ts';
import type { WorkflowRunner } from '../workflows/runtime/workflow-runner.ts';

/** The version of a workflow a live run uses: the current one. */
export interface WorkflowVersionSource {
  currentVersion(workflowId: string): Promise<{ version: number; document: WorkflowDocument } | undefined>;
}

export interface InboundEventProcessorDeps {
  db: Knex;
  channels: ChannelRegistry<ChannelSandbox>;
  workflows: WorkflowVersionSource;
  subscribers: SubscriberStore;
  threads: ThreadStore;
  history: MessageHistory;
  runner: WorkflowRunner;
  outbox: LiveOutboxDeps;
  /** Removes a run's run-scope memory (the memory store's endRun). */
  endRunMemory(runId: string): Promise<unknown>;
  /**
   * How long a claim holds (BOT_DISPATCH_LEASE_MS): an event `running` under a younger claim is
   * being processed by a live instance, and only an older one may be taken over.
   */
  claimTimeoutMs: number;
  logger: Logger;
}

interface InboundEventRow {
  id: string;
  source_id: string;
  workflow_id: string | null;
  sender_foreign_id: string | null;
  event: PlainInboundEvent;
  status: 'queued' | 'running' | 'done' | 'skipped' | 'failed';
}

/** What a run needs of the event's source; null when the source was deleted. */
type EventSource = Pick<SourceRow, 'id' | 'ref' | 'name' | 'channel' | 'settings' | 'active' | 'default_workflow_id'>;

/** A claimed event with its source, read in the same statement. */
type ClaimedEvent = InboundEventRow & { source: EventSource | null; claim_token: string };

/** Where one attempt stands among the tries the job engine gives an event. */
export interface Attempt {
  number: number;
  maxAttempts: number;
}

/** A run that failed: the job engine tries the event again later (with backoff), up to its last attempt. */
export class RunFailedError extends Error {
  readonly code: string;

  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'RunFailedError';
    this.code = code;
  }
}

/**
 * Takes one committed inbound event to its end (DESIGN §7 steps 4–5): checks the run rules
 * (active source, a workflow from the URL or the source's default, a sender), finds or creates
 * the subscriber, resolves the thread, records the inbound message and runs the workflow. An
 * event that must not run is marked `skipped` with the reason; a failed run throws so the job
 * engine retries it, and its last try marks the event `failed` (a dead letter) instead.
 * Processing an event already done or skipped does nothing, so a job run twice is harmless.
 */
export class InboundEventProcessor {
  constructor(private readonly deps: InboundEventProcessorDeps) {}

  async process(inboundEventId: string, attempt: Attempt): Promise<void> {
    const row = await this.#claim(inboundEventId);
    if (!row) return;
    await this.#abandonEarlierRuns(row.id);
    try {
      const outcome = await this.#run(row);
      await this.#finish(row, outcome.status, outcome.reason);
    } catch (error) {
      const { code, message } = describeError(error);
      const last = attempt.number >= attempt.maxAttempts;
      await this.#finish(row, last ? 'failed' : 'queued', `${code}: ${message}`);
      if (!last) throw error;
      this.deps.logger.error({ inboundEventId, code, attempts: attempt.number }, 'inbound event failed for good; kept as a dead letter');
    }
  }

  async #run(row: ClaimedEvent): Promise<{ status: 'done' | 'skipped'; reason: string | null }> {
    const source = row.source;
    if (!source) return { status: 'skipped', reason: 'source deleted' };
    if (!source.active) return { status: 'skipped', reason: 'source inactive' };
    const workflowId = row.workflow_id ?? source.default_workflow_id;
    if (!workflowId) return { status: 'skipped', reason: 'no workflow: none in the URL and no default on the source' };
    if (!row.sender_foreign_id) return { status: 'skipped', reason: 'no sender foreign id' };
    const workflow = await this.deps.workflows.currentVersion(workflowId);
    if (!workflow) return { status: 'skipped', reason: `workflow ${workflowId} does not exist` };

    const event = row.event;
    const plainSource = { id: source.id, ref: source.ref, settings: source.settings, active: source.active };
    const subscriber = await this.deps.subscribers.findOrCreate(source.id, row.sender_foreign_id, () =>
      this.deps.channels.call(source.channel, (sandbox) => sandbox.subscriberData(event, plainSource)),
    );
    const threadId = await this.deps.threads.current(subscriber.id, source.id);
    if (event.message) await this.deps.history.recordInbound(threadId, row.id, event.message);

    const result = await this.deps.runner.run({
      workflowId,
      workflowVersion: workflow.version,
      document: workflow.document,
      ownerId: subscriber.id,
      mode: 'live',
      input: toRunInput(event),
      threadId,
      sourceId: source.id,
      inboundEventId: row.id,
      context: {
        subscriber: { id: subscriber.id, foreignId: subscriber.foreignId, firstName: subscriber.firstName, lastName: subscriber.lastName },
        source: { id: source.id, name: source.name, channel: source.channel },
      },
      outboxFor: (position, run) =>
        new LiveOutbox(this.deps.outbox, { runId: run.runId, inboundEventId: row.id, event, source: { ...plainSource, channel: source.channel }, threadId, position }),
      history: { recent: (limit) => this.deps.history.recent(threadId, limit) },
    });
    if (result.status === 'failed') {
      throw new RunFailedError(result.error?.code ?? 'BOT_ERR_WORKFLOW_STEP_FAILED', result.error?.message ?? 'the run failed');
    }
    return { status: 'done', reason: null };
  }

  /**
   * Marks the event running under a claim token of this attempt, counts the attempt and reads
   * its source, in one round trip (each one counts: `npm run bench -- e2e`). Undefined when the
   * event is finished already. An event `running` under a claim younger than `claimTimeoutMs`
   * belongs to a live instance: this attempt throws, and the job engine tries again later.
   */
  async #claim(id: string): Promise<ClaimedEvent | undefined> {
    const { rows } = await this.deps.db.raw<{ rows: ClaimedEvent[] }>(
      `WITH claimed AS (
         UPDATE inbound_events SET status = 'running', attempts = attempts + 1,
           claim_token = gen_random_uuid(), claimed_at = now()
         WHERE id = ? AND (status IN ('queued', 'failed')
           OR (status = 'running' AND (claimed_at IS NULL OR claimed_at < now() - make_interval(secs => ?))))
         RETURNING id, source_id, workflow_id, sender_foreign_id, event, status, claim_token
       )
       SELECT claimed.*, CASE WHEN s.id IS NULL THEN NULL ELSE json_build_object(
         'id', s.id, 'ref', s.ref, 'name', s.name, 'channel', s.channel, 'settings', s.settings,
         'active', s.active, 'default_workflow_id', s.default_workflow_id) END AS source
       FROM claimed LEFT JOIN sources AS s ON s.id = claimed.source_id`,
      [id, this.deps.claimTimeoutMs / 1000],
    );
    if (rows[0]) return rows[0];
    const current: { status: string } | undefined = await this.deps.db('inbound_events').where({ id }).first('status');
    if (current?.status === 'running') {
      throw new RunFailedError('BOT_ERR_INBOUND_EVENT_BUSY', 'Another instance is processing this event; trying again later');
    }
    return undefined;
  }

  /**
   * Runs of this event that a dead host left `running` are marked failed, and their run-scope
   * memory removed: nobody else would end them.
   */
  async #abandonEarlierRuns(inboundEventId: string): Promise<void> {
    const abandoned: { id: string }[] = await this.deps.db('workflow_runs')
      .where({ inbound_event_id: inboundEventId, status: 'running' })
      .update({
        status: 'failed',
        finished_at: this.deps.db.fn.now(),
        error: JSON.stringify({ code: 'BOT_ERR_WORKFLOW_RUN_ABANDONED', message: 'The host running it stopped; a later attempt took over' }),
      })
      .returning('id');
    for (const run of abandoned) await this.deps.endRunMemory(run.id);
  }

  /** Records the outcome, only if this attempt still holds the claim (else a newer one owns the event). */
  async #finish(row: ClaimedEvent, status: InboundEventRow['status'], reason: string | null): Promise<void> {
    const updated = await this.deps.db('inbound_events').where({ id: row.id, claim_token: row.claim_token }).update({ status, reason, claim_token: null });
    if (updated === 0) this.deps.logger.warn({ inboundEventId: row.id, status }, 'an attempt lost its claim on the event; its outcome is not recorded');
  }
}

/** `$input`: the message as workflows read it. */
export function toRunInput(event: PlainInboundEvent): RunInput {
  const message = event.message;
  const data = (message?.data ?? {}) as { text?: string; payload?: unknown };
  return {
    message_type: message?.type ?? 'event',
    ...(data.text === undefined ? {} : { text: data.text }),
    ...(data.payload === undefined ? {} : { payload: data.payload }),
    event_id: event.eventId,
    channel: event.channelName,
    sender_id: event.senderForeignId ?? null,
    occurred_at: event.occurredAt,
  };
}
