import type { Knex } from 'knex';
import { BatchedStatement } from '../../db/batched-statement.ts';
import type { RunState } from './action.ts';
import { RUN_END_COLUMNS, RUN_END_CTES, runEndColumns, STEP_WRITE_CTES, stepColumns, type RunEnd, type StepWrite } from './run-end-sql.ts';
import { claimSendsSql, SEND_CLAIM_COLUMNS_BUT_RUN, sendClaimColumns, type SendClaim, type SendRecord } from '../../outbox/outbox-records.ts';
import { sentRepliesColumns } from '../../outbox/sent-replies-sql.ts';
import { rowsByCall, toCallRow, UPSERT_IF_CURRENT_CTES } from '../../memory/records/upsert-if-current.ts';
import type { UpsertedRow } from '../../memory/records/upsert-records.ts';

/** How a step's record statement went for its staged memory write (see RunRecords.step). */
export interface StepWritten {
  memoryCurrent: boolean;
  memoryWritten: UpsertedRow[];
}

export interface RunStart {
  run: RunState;
  /** A test run of an unsaved draft (see RunRequest.draft). */
  draft: boolean;
  inboundEventId: string | null;
  startedAt: Date;
}

/**
 * A run's row as its start records it, but for its owner and thread: a caller that records the
 * start in a statement of its own (the dispatcher, entering the conversation) fills those in.
 */
export interface RunStartRow {
  id: string;
  workflow_id: string;
  workflow_version: number;
  draft: boolean;
  mode: 'live' | 'test';
  source_id: string | null;
  inbound_event_id: string | null;
  input: unknown;
  started_at: string;
}

/** The columns of a RunStartRow, for `jsonb_to_record(set)`. */
export const RUN_START_ROW_COLUMNS =
  'id uuid, workflow_id uuid, workflow_version int, draft boolean, mode text, source_id uuid, inbound_event_id uuid, input jsonb, started_at timestamptz';

/** The INSERT that starts runs: `select` yields a RunStartRow's columns plus `owner_id` and `thread_id`. */
export function insertStartedRuns(select: string): string {
  return `INSERT INTO workflow_runs (id, workflow_id, workflow_version, draft, mode, owner_id, source_id, thread_id, inbound_event_id, status, input, started_at)
          SELECT id, workflow_id, workflow_version, draft, mode, owner_id, source_id, thread_id, inbound_event_id, 'running', input, started_at
            FROM (${select}) AS started`;
}

export function runStartRowOf({ run, draft, inboundEventId, startedAt }: RunStart): RunStartRow {
  return {
    id: run.runId,
    workflow_id: run.workflowId,
    workflow_version: run.workflowVersion,
    draft,
    mode: run.mode,
    source_id: run.sourceId ?? null,
    inbound_event_id: inboundEventId,
    input: run.input,
    started_at: startedAt.toJSON(),
  };
}

/**
 * The `workflow_runs` and `workflow_run_steps` rows every run writes, each kind batched across
 * the runs in flight (BatchedStatement): a run waits for its own row to commit, so a step is
 * never written before its run, and an end never before the run's earlier steps.
 */
export class RunRecords {
  readonly #starts: BatchedStatement<RunStart>;
  readonly #steps: BatchedStatement<StepWrite, StepWrittenRow, StepWritten>;
  readonly #ends: BatchedStatement<RunEnd>;
  readonly #claimsWithSteps: Record<'resend' | 'once', BatchedStatement<StepWithClaim, StepWrittenRow & { claims: (SendRecord & { send_key: string })[] }, StepWritten & { claimed: SendRecord | undefined }>>;

  constructor(db: Knex) {
    this.#starts = new BatchedStatement(db, {
      name: 'runner-insert-runs',
      sql: insertStartedRuns(`SELECT * FROM jsonb_to_recordset(?::jsonb) AS x(${RUN_START_ROW_COLUMNS}, owner_id text, thread_id uuid)`),
      toRow: (start) => ({ ...runStartRowOf(start), owner_id: start.run.ownerId, thread_id: start.run.threadId ?? null }),
    });
    this.#steps = new BatchedStatement(db, {
      name: 'runner-insert-steps',
      sql: recordStepsSql(),
      toRow: stepWriteColumns,
      // Calls of one owner may not share an upsert; other steps never conflict.
      keyOf: stepWriteKey,
      results: ([row], writes) => stepsWritten(row, writes),
    });
    const claimsWithSteps = (resendUnknown: boolean) =>
      new BatchedStatement<StepWithClaim, StepWrittenRow & { claims: (SendRecord & { send_key: string })[] }, StepWritten & { claimed: SendRecord | undefined }>(db, {
        name: resendUnknown ? 'runner-insert-steps-claim-sends-resend-unknown' : 'runner-insert-steps-claim-sends-once',
        // The send is the same run's: its run_id is the step's.
        sql: recordStepsSql({
          columns: SEND_CLAIM_COLUMNS_BUT_RUN,
          ctes: `claimed AS (${claimSendsSql('kept', resendUnknown)})`,
          select: `(SELECT coalesce(json_agg(c), '[]'::json) FROM claimed AS c) AS claims`,
        }),
        toRow: ({ write, claim }) => ({ ...sendClaimColumns(claim), ...stepWriteColumns(write) }),
        keyOf: ({ write }) => stepWriteKey(write),
        results: ([row], items) => {
          const claims = new Map((row?.claims ?? []).map(({ send_key, ...record }) => [send_key, record]));
          const written = stepsWritten(row, items.map(({ write }) => write));
          return items.map(({ claim }, index) => ({ ...written[index]!, claimed: claims.get(claim.sendKey) }));
        },
      });
    this.#claimsWithSteps = { resend: claimsWithSteps(true), once: claimsWithSteps(false) };
    this.#ends = new BatchedStatement(db, {
      name: 'runner-end-runs',
      sql: `WITH x AS (SELECT * FROM jsonb_to_recordset(?::jsonb) AS x(${RUN_END_COLUMNS})), ${RUN_END_CTES('x')}
            SELECT count(*) FROM x`,
      toRow: (end: RunEnd) => runEndColumns(end),
    });
  }

  start(start: RunStart): Promise<void> {
    return this.#starts.submit(start);
  }

  /**
   * Records a step, with the replies it sent marked and the memory write it staged made, in one
   * statement. `memoryCurrent` false: the write found a definition changed, and neither it nor
   * the step was written.
   */
  step(write: StepWrite): Promise<StepWritten> {
    return this.#steps.submit(write);
  }

  /**
   * Records a step (as `step` does) and claims a later step's send (as OutboxRecords.claim does)
   * in one statement: the claim is made only with the step, so when the step's staged memory
   * write finds a definition changed, neither is written (`memoryCurrent` false, no `claimed`).
   */
  stepWithClaim(item: StepWithClaim, resendUnknown: boolean): Promise<StepWritten & { claimed: SendRecord | undefined }> {
    return this.#claimsWithSteps[resendUnknown ? 'resend' : 'once'].submit(item);
  }

  /** Records the run's last step (and the replies it sent) and its end in one statement. */
  end(end: RunEnd): Promise<void> {
    return this.#ends.submit(end);
  }
}

/** A step's record and a later step's send, claimed in the statement that records the step. */
export interface StepWithClaim {
  write: StepWrite;
  claim: SendClaim;
}

/** What a statement recording steps returns: the ords of the writes whose memory was current, and the rows they stored. */
interface StepWrittenRow {
  current: (number | string)[];
  written: UpsertedRow[];
}

/**
 * The statement that records steps, each with the replies it sent marked and the memory write it
 * staged made. A step with a staged memory write is recorded only with it: when the write finds a
 * definition changed and writes nothing, neither is the step (the runner writes both again). The
 * write does not look at whether the step row existed: a step carrying a write is sent once (a
 * lost answer fails the run, which a retry then reuses from what committed). `also` adds columns
 * to the rows, CTEs over `kept` (the rows recorded) and a field to the result.
 */
function recordStepsSql(also?: { columns: string; ctes: string; select: string }): string {
  const names = also ? also.columns.split(',').map((column) => column.trim().split(' ')[0]) : [];
  return `WITH x AS MATERIALIZED (
            SELECT * FROM ROWS FROM (jsonb_to_recordset(?::jsonb) AS (run_id uuid, step jsonb, sent jsonb, memory jsonb${also ? `, ${also.columns}` : ''}))
              WITH ORDINALITY AS x(run_id, step, sent, memory, ${names.map((name) => `${name}, `).join('')}ord)
          ), calls AS MATERIALIZED (
            SELECT x.ord, x.memory->'versions' AS versions, x.memory->'rows' AS rows, (x.memory->>'at')::timestamptz AS at
              FROM x WHERE x.memory IS NOT NULL
          ), ${UPSERT_IF_CURRENT_CTES('calls', 'memory')},
          kept AS MATERIALIZED (SELECT x.* FROM x WHERE x.memory IS NULL OR x.ord IN (SELECT ord FROM memory_current)),
          ${STEP_WRITE_CTES('kept', 'step', 'sent', 'written')}${also ? `, ${also.ctes}` : ''}
          SELECT (SELECT coalesce(json_agg(ord), '[]'::json) FROM memory_current) AS current,
                 (SELECT coalesce(json_agg(w), '[]'::json) FROM memory_written AS w) AS written${also ? `, ${also.select}` : ''}`;
}

function stepWriteColumns({ runId, step, sentReplies, memory }: StepWrite): Record<string, unknown> {
  return { run_id: runId, step: stepColumns(step), sent: sentRepliesColumns(sentReplies), memory: memory ? toCallRow(memory.call) : null };
}

/** Calls of one owner may not share an upsert; other steps never conflict. */
function stepWriteKey({ runId, memory }: StepWrite): string {
  return memory ? `owner:${memory.call.rows[0]?.owner_id}` : `run:${runId}`;
}

/**
 * Each write's outcome in the statement that answered `row`, in order. The stored rows are read
 * once for the whole statement: a batch of n writes would otherwise parse every row's times n
 * times over.
 */
function stepsWritten(row: StepWrittenRow | undefined, writes: StepWrite[]): StepWritten[] {
  const current = new Set(row?.current.map(Number));
  const calls = writes.flatMap((write) => (write.memory ? [write.memory.call] : []));
  const byCall = calls.length === 0 ? [] : rowsByCall((row?.written ?? []).map(withTimes), calls);
  let call = 0;
  return writes.map((write, index) => (write.memory ? { memoryCurrent: current.has(index + 1), memoryWritten: byCall[call++]! } : { memoryCurrent: true, memoryWritten: [] }));
}

/** A stored memory row as json_agg gives it (times as text), with its times as Dates, as pg reads them. */
function withTimes(row: UpsertedRow): UpsertedRow {
  return { ...row, created_at: asDate(row.created_at)!, updated_at: asDate(row.updated_at)!, expires_at: asDate(row.expires_at) };
}

function asDate(value: Date | string | null): Date | null {
  return value === null ? null : new Date(value);
}
