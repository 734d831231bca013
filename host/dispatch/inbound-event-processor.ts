import type { PlainInboundEvent } from '@bot-ai/api';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { ChannelRegistry } from '../channels/channel-registry.ts';
import type { ChannelCalls } from '../channels/channel-calls.ts';
import type { MessageHistory } from '../conversations/message-history.ts';
import type { ConversationEntry } from '../conversations/conversation-entry.ts';
import type { SubscriberStore } from '../conversations/subscriber-store.ts';
import { BatchedStatement } from '../db/batched-statement.ts';
import { PreparedStatement } from '../db/prepared-statement.ts';
import { LiveOutbox, type LiveOutboxDeps } from '../outbox/live-outbox.ts';
import { OutboxRecords } from '../outbox/outbox-records.ts';
import type { SourceRow } from '../sources/source.ts';
import type { WorkflowDocument } from '../workflows/document/workflow-document.ts';
import type { RunInput } from '../workflows/runtime/action.ts';
import { describeError } from '../workflows/runtime/describe-error.ts';
import type { WorkflowRunner } from '../workflows/runtime/workflow-runner.ts';
import type { AttemptOutcome } from '../metrics/host-metrics.ts';
import { ClaimHeartbeat } from './claim-heartbeat.ts';
import { logFailedAttempt } from './log-failed-attempt.ts';

/** The document of a workflow version (the claim reads which version is current). */
export interface WorkflowVersionSource {
  versionDocument(workflowId: string, version: number): Promise<WorkflowDocument>;
}

export interface InboundEventProcessorDeps {
  db: Knex;
  channels: ChannelRegistry<ChannelCalls>;
  workflows: WorkflowVersionSource;
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
  /** Counts each attempt's outcome (metrics). */
  countAttempt?: (outcome: AttemptOutcome) => void;
  logger: Logger;
}

interface InboundEventRow {
  id: string;
  source_id: string;
  workflow_id: string | null;
  sender_foreign_id: string | null;
  event: PlainInboundEvent;
  status: 'queued' | 'running' | 'done' | 'skipped' | 'failed';
  /** Attempts that claimed the event, this one included. */
  attempts: number;
}

/** An attempt's outcome, recorded only while the attempt holds the event's claim. */
interface EventOutcome {
  id: string;
  claim_token: string;
  status: InboundEventRow['status'];
  reason: string | null;
}

/** What the claim reads besides the event, in the same statement. */
interface ClaimExtras {
  source: EventSource | null;
  claim_token: string;
  /** The current version of the workflow the event would run (from the URL, else the source's default); null when there is none. */
  workflow_version: number | null;
  /** Runs of this event that a dead host left `running`, now marked failed. */
  abandoned_run_ids: string[];
  /** Whether an earlier attempt started a run: only then can a step be reused. */
  has_earlier_runs: boolean;
}

/** What a run needs of the event's source; null when the source was deleted. */
type EventSource = Pick<SourceRow, 'id' | 'ref' | 'name' | 'channel' | 'settings' | 'active' | 'default_workflow_id'>;

/** A claimed event with its source, read in the same statement. */
type ClaimedEvent = InboundEventRow & ClaimExtras;

/**
 * Whether an earlier message of the event's conversation (the row `alias`) holds it back: one
 * that is running (found through the status index: running events are few, at most the
 * instances' concurrency), or one that waits for a retry or was held back itself, recorded in
 * conversation_holds. A hold counts only while its event is still queued or running, so a stale
 * one costs nothing. Running matters when the job queue lets a conversation's next job start
 * while an earlier one still runs: a job engine that died and was restarted (its old task goes
 * on), or a job failed by graphile-worker's forced shutdown (the chaos benchmark saw a reply
 * composed from the other message's memory).
 */
const HELD_BACK = (alias: string) => `(EXISTS (SELECT 1 FROM inbound_events AS running
       WHERE running.status = 'running' AND running.source_id = ${alias}.source_id
         AND running.sender_foreign_id = ${alias}.sender_foreign_id AND running.seq < ${alias}.seq)
   OR EXISTS (SELECT 1 FROM conversation_holds AS hold
     JOIN inbound_events AS earlier ON earlier.id = hold.inbound_event_id
     WHERE hold.source_id = ${alias}.source_id AND hold.sender_foreign_id = ${alias}.sender_foreign_id
       AND hold.seq < ${alias}.seq AND earlier.status IN ('queued', 'running')))`;

/** Puts the event's hold on its conversation's later messages (no sender: no conversation, no hold). */
const HOLD = new PreparedStatement(
  'dispatch-hold-conversation',
  `INSERT INTO conversation_holds (inbound_event_id, source_id, sender_foreign_id, seq)
   SELECT id, source_id, sender_foreign_id, seq FROM inbound_events WHERE id = ? AND sender_foreign_id IS NOT NULL
   ON CONFLICT DO NOTHING`,
);

const CLAIM = new PreparedStatement<ClaimedEvent>(
  'dispatch-claim-event',
  `WITH claimed AS (
     UPDATE inbound_events SET status = 'running', attempts = attempts + 1,
       claim_token = gen_random_uuid(), claimed_at = now()
     WHERE id = ? AND (status IN ('queued', 'failed')
       OR (status = 'running' AND (claimed_at IS NULL OR claimed_at < now() - make_interval(secs => ?)
                                   OR claim_token = ?::uuid)))
       -- Not while an earlier message of the conversation holds it back (see HELD_BACK).
       AND NOT ${HELD_BACK('inbound_events')}
     RETURNING id, source_id, workflow_id, sender_foreign_id, event, status, claim_token, attempts
   ), abandoned AS (
     UPDATE workflow_runs SET status = 'failed', finished_at = now(), error = ?
     WHERE inbound_event_id IN (SELECT id FROM claimed) AND status = 'running'
     RETURNING id
   )
   SELECT claimed.*, CASE WHEN s.id IS NULL THEN NULL ELSE json_build_object(
       'id', s.id, 'ref', s.ref, 'name', s.name, 'channel', s.channel, 'settings', s.settings,
       'active', s.active, 'default_workflow_id', s.default_workflow_id) END AS source,
     w.current_version AS workflow_version,
     array(SELECT id FROM abandoned) AS abandoned_run_ids,
     EXISTS (SELECT 1 FROM workflow_runs r WHERE r.inbound_event_id = claimed.id) AS has_earlier_runs
   FROM claimed
   LEFT JOIN sources AS s ON s.id = claimed.source_id
   LEFT JOIN LATERAL (SELECT coalesce(claimed.workflow_id, s.default_workflow_id) AS id) AS wanted ON true
   LEFT JOIN workflows AS w ON w.id = CASE WHEN wanted.id ~* '^[0-9a-f]{8}-([0-9a-f]{4}-){3}[0-9a-f]{12}$' THEN wanted.id::uuid END`,
);

/** Dead claims remembered at most (the oldest go first): events another instance took meanwhile are never asked for here again. */
const MAX_DEAD_CLAIMS = 10_000;

/**
 * Why CLAIM took nothing: the event is finished, or runs under a live claim (`age_ms` old), or an
 * earlier message of its conversation holds it back (the same test as CLAIM's).
 */
const WHY_NOT_CLAIMED = new PreparedStatement<{ status: string; age_ms: number | null; behind_earlier_message: boolean }>(
  'dispatch-why-not-claimed',
  `SELECT e.status, extract(epoch from now() - e.claimed_at) * 1000 AS age_ms, ${HELD_BACK('e')} AS behind_earlier_message
   FROM inbound_events AS e WHERE e.id = ?`,
);

/** Statuses an attempt may still claim (a `failed` one when an admin retries it). */
const OPEN_STATUSES = new Set(['queued', 'running', 'failed']);

const ABANDONED_RUN_ERROR = { code: 'BOT_ERR_WORKFLOW_RUN_ABANDONED', message: 'The host running it stopped; a later attempt took over' };

/** Where one attempt stands among the tries the job engine gives an event. */
export interface Attempt {
  number: number;
  maxAttempts: number;
}

/** A run that failed: the job engine tries the event again later (with backoff), up to its last attempt. */
export class RunFailedError extends Error {
  readonly code: string;
  /** The wait the platform asked for (Retry-After), honoured instead of the job's own backoff. */
  readonly retryAfterMs: number | undefined;

  constructor(code: string, message: string, options?: { cause?: unknown; retryAfterMs?: number | undefined }) {
    super(message, options);
    this.name = 'RunFailedError';
    this.code = code;
    this.retryAfterMs = options?.retryAfterMs;
  }
}

/** What the job engine does after an attempt (see InboundEventProcessor.process). */
export type ProcessOutcome = 'handled' | 'behind-earlier-message' | { retryAfterMs: number };

/** A Retry-After is honoured up to an hour; a platform asking for longer is tried again after one. */
const MAX_RETRY_AFTER_MS = 3_600_000;

/**
 * Takes one committed inbound event to its end (DESIGN §7 steps 4–5): checks the run rules
 * (active source, a workflow from the URL or the source's default, a sender), finds or creates
 * the subscriber, resolves the thread, records the inbound message and runs the workflow. An
 * event that must not run is marked `skipped` with the reason; a failed run throws so the job
 * engine retries it, and its last try marks the event `failed` (a dead letter) instead.
 * Processing an event already done or skipped does nothing, so a job run twice is harmless.
 */
export class InboundEventProcessor {
  readonly #outboxRecords: OutboxRecords;
  /** Outcomes recorded, batched across the events in flight; each says whether the attempt still held its claim. */
  readonly #finishes: BatchedStatement<EventOutcome, { id: string }, boolean>;

  /**
   * Claims of this instance whose attempt ended without recording its outcome (the database went
   * away): nobody works under them any more, so the event's next attempt here takes them over at
   * once instead of failing as busy, which would let the conversation's later messages go first.
   */
  readonly #deadClaims = new Map<string, string>();
  /** Renews the claims of the events this instance runs, every third of the claim timeout. */
  readonly #heartbeat: ClaimHeartbeat;

  /** A platform's Retry-After up to 10 s, and a third of the claim timeout, is waited for within the run. */
  readonly #retryAfterMaxMs: number;

  constructor(private readonly deps: InboundEventProcessorDeps) {
    this.#retryAfterMaxMs = Math.min(10_000, Math.floor(deps.claimTimeoutMs / 3));
    this.#outboxRecords = new OutboxRecords(deps.db);
    this.#heartbeat = new ClaimHeartbeat(deps.db, Math.max(50, Math.floor(deps.claimTimeoutMs / 3)), deps.logger);
    this.#finishes = new BatchedStatement(deps.db, {
      name: 'dispatch-finish-events',
      // `id = ANY(…)`: see BatchedStatement on why a batched UPDATE names its keys twice.
      // An event left to wait for its retry holds its conversation's later messages back; one
      // that reached its end releases them.
      sql: `WITH x AS (SELECT * FROM jsonb_to_recordset(?::jsonb) AS x(id uuid, claim_token uuid, status text, reason text)),
            finished AS (
              UPDATE inbound_events AS e SET status = x.status, reason = x.reason, claim_token = NULL
                FROM x WHERE e.id = x.id AND e.claim_token = x.claim_token AND e.id = ANY(ARRAY(SELECT id FROM x))
              RETURNING e.id, e.status, e.source_id, e.sender_foreign_id, e.seq
            ), held AS (
              INSERT INTO conversation_holds (inbound_event_id, source_id, sender_foreign_id, seq)
              SELECT id, source_id, sender_foreign_id, seq FROM finished WHERE status = 'queued' AND sender_foreign_id IS NOT NULL
              ON CONFLICT DO NOTHING
            ), released AS (
              DELETE FROM conversation_holds WHERE inbound_event_id IN (SELECT id FROM finished WHERE status <> 'queued')
            )
            SELECT id FROM finished`,
      toRow: ({ id, claim_token, status, reason }) => ({ id, claim_token, status, reason }),
      results: (rows, outcomes) => {
        const recorded = new Set(rows.map((row) => row.id));
        return outcomes.map((outcome) => recorded.has(outcome.id));
      },
    });
  }

  /**
   * One attempt at the event. `behind-earlier-message`: an earlier message of the conversation is
   * running or waits for a retry, so this one did not start (and used no attempt); the job engine
   * asks again shortly, behind it. `{ retryAfterMs }`: the run failed on a platform that asked to
   * be tried again later than the job's backoff would; the job engine queues the event for then.
   * A failed attempt otherwise throws, and the job engine retries with its backoff. The last
   * attempt is the job's, or the event's own count when jobs were queued again (Retry-After).
   */
  async process(inboundEventId: string, attempt: Attempt): Promise<ProcessOutcome> {
    const row = await this.#claim(inboundEventId);
    if (row === 'finished') return 'handled';
    if (row === 'behind-earlier-message') {
      this.deps.countAttempt?.('held_back');
      return row;
    }
    // A dead host's runs of this event were ended by the claim; nobody else removes their run-scope memory.
    for (const runId of row.abandoned_run_ids) await this.deps.endRunMemory(runId);
    let outcome: { status: InboundEventRow['status']; reason: string | null; error?: unknown };
    this.#heartbeat.hold(row.id, row.claim_token);
    try {
      outcome = await this.#run(row);
    } catch (error) {
      const { code, message } = describeError(error);
      const last = Math.max(attempt.number, row.attempts) >= attempt.maxAttempts;
      outcome = { status: last ? 'failed' : 'queued', reason: `${code}: ${message}`, error };
    } finally {
      this.#heartbeat.release(row.id);
    }
    try {
      await this.#finish(row, outcome.status, outcome.reason);
    } catch (error) {
      if (this.#deadClaims.size >= MAX_DEAD_CLAIMS) this.#deadClaims.delete(this.#deadClaims.keys().next().value!);
      this.#deadClaims.set(row.id, row.claim_token);
      throw error;
    }
    const retryAfterMs = (outcome.error as { retryAfterMs?: number } | undefined)?.retryAfterMs;
    this.deps.countAttempt?.(outcome.status === 'queued' ? (retryAfterMs === undefined ? 'retry' : 'retry_after') : (outcome.status as AttemptOutcome));
    if (outcome.status === 'skipped') {
      // Nothing answers a skipped event: say why where an operator looks.
      this.deps.logger.warn({ inboundEventId, reason: outcome.reason }, 'inbound event skipped: no workflow runs for it');
    }
    if (outcome.error !== undefined) {
      if (outcome.status !== 'failed') logFailedAttempt(this.deps.logger, inboundEventId, outcome.error, attempt);
      if (outcome.status !== 'failed' && retryAfterMs !== undefined) return { retryAfterMs: Math.min(retryAfterMs, MAX_RETRY_AFTER_MS) };
      if (outcome.status !== 'failed') throw outcome.error;
      const { code } = describeError(outcome.error);
      this.deps.logger.error({ inboundEventId, code, attempts: attempt.number }, 'inbound event failed for good; kept as a dead letter');
    }
    return 'handled';
  }

  async #run(row: ClaimedEvent): Promise<{ status: 'done' | 'skipped'; reason: string | null }> {
    const source = row.source;
    if (!source) return { status: 'skipped', reason: 'source deleted' };
    if (!source.active) return { status: 'skipped', reason: 'source inactive' };
    const workflowId = row.workflow_id ?? source.default_workflow_id;
    if (!workflowId) return { status: 'skipped', reason: 'no workflow: none in the URL and no default on the source' };
    if (!row.sender_foreign_id) return { status: 'skipped', reason: 'no sender foreign id' };
    if (row.workflow_version === null) return { status: 'skipped', reason: `workflow ${workflowId} does not exist` };
    const document = await this.deps.workflows.versionDocument(workflowId, row.workflow_version);

    const event = row.event;
    const plainSource = { id: source.id, ref: source.ref, settings: source.settings, active: source.active };
    const arrival = { sourceId: source.id, senderForeignId: row.sender_foreign_id, inboundEventId: row.id, message: event.message };
    let entered = await this.deps.conversations.enter(arrival);
    if (!entered) {
      // A new sender: the channel describes them (in its sandbox) once, then the event enters.
      await this.deps.subscribers.findOrCreate(source.id, row.sender_foreign_id, () =>
        this.deps.channels.call(source.channel, (sandbox) => sandbox.subscriberData(event, plainSource)),
      );
      entered = await this.deps.conversations.enter(arrival);
      if (!entered) throw new RunFailedError('BOT_ERR_INBOUND_EVENT_BUSY', 'The new subscriber was deleted at once; trying again later');
    }
    const { subscriber, threadId } = entered;

    const result = await this.deps.runner.run({
      workflowId,
      workflowVersion: row.workflow_version,
      document,
      reuseEarlierSteps: row.has_earlier_runs,
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
        new LiveOutbox({ ...this.deps.outbox, records: this.#outboxRecords, retryAfterMaxMs: this.#retryAfterMaxMs }, { runId: run.runId, inboundEventId: row.id, event, source: { ...plainSource, channel: source.channel }, threadId, position }),
      history: { recent: (limit) => this.deps.history.recent(threadId, limit) },
    });
    if (result.status === 'failed') {
      throw new RunFailedError(result.error?.code ?? 'BOT_ERR_WORKFLOW_STEP_FAILED', result.error?.message ?? 'the run failed', { retryAfterMs: result.error?.retryAfterMs });
    }
    return { status: 'done', reason: null };
  }

  /**
   * Marks the event running under a claim token of this attempt, counts the attempt, ends the
   * runs a dead host left behind, and reads its source and its workflow's current version, in
   * one round trip (each one counts: `npm run bench -- e2e`). Undefined when the event is
   * finished already. An event `running` under a claim younger than `claimTimeoutMs` belongs to
   * a live instance: this attempt throws, and the job engine tries again later.
   */
  async #claim(id: string, waited = false): Promise<ClaimedEvent | 'finished' | 'behind-earlier-message'> {
    const { rows } = await CLAIM.run(this.deps.db, [id, this.deps.claimTimeoutMs / 1000, this.#deadClaims.get(id) ?? null, JSON.stringify(ABANDONED_RUN_ERROR)]);
    if (rows[0]) {
      this.#deadClaims.delete(id);
      return rows[0];
    }
    const { rows: [current] } = await WHY_NOT_CLAIMED.run(this.deps.db, [id]);
    if (!current || !OPEN_STATUSES.has(current.status)) {
      this.#deadClaims.delete(id);
      return 'finished';
    }
    if (current.behind_earlier_message || current.status !== 'running') {
      // Held back, it holds back the messages after it in turn: once the earlier one ends, a
      // newer message (whose job is due at once) must not go before this one's next check.
      await HOLD.run(this.deps.db, [id]);
      return 'behind-earlier-message';
    }
    // A dead host's lease runs out up to a heartbeat (a third of the lease) before the claim it
    // took last: wait for that claim to age rather than fail the job into its backoff, which
    // would keep the conversation waiting longer (test/scale-out/kill-one-host.test.ts).
    const leftMs = this.deps.claimTimeoutMs - Number(current.age_ms ?? 0);
    if (!waited && leftMs > 0 && leftMs <= this.deps.claimTimeoutMs / 2) {
      await new Promise((resolve) => setTimeout(resolve, leftMs + 50));
      return this.#claim(id, true);
    }
    // It runs elsewhere: its later messages wait for it rather than overtake it while this job backs off.
    await HOLD.run(this.deps.db, [id]);
    this.deps.countAttempt?.('busy');
    throw new RunFailedError('BOT_ERR_INBOUND_EVENT_BUSY', 'Another instance is processing this event; trying again later');
  }

  /** Records the outcome, only if this attempt still holds the claim (else a newer one owns the event). */
  async #finish(row: ClaimedEvent, status: InboundEventRow['status'], reason: string | null): Promise<void> {
    const recorded = await this.#finishes.submit({ id: row.id, claim_token: row.claim_token, status, reason });
    if (!recorded) this.deps.logger.warn({ inboundEventId: row.id, status }, 'an attempt lost its claim on the event; its outcome is not recorded');
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
