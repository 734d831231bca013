import { SENT_REPLIES_CTES, sentRepliesColumns, type SentReply } from '../../outbox/sent-replies-sql.ts';
import type { StagedMemoryWrite } from './action.ts';
import type { StepError } from './describe-step-error.ts';
import type { StepRecord } from './step-record.ts';

// A run's end, written once: the CTEs that record a run's last step, mark the replies it sent
// and set the run's status. RunRecords says them alone (a test run, a run not dispatched); the
// dispatcher says them in the statement that records the inbound event's outcome and hands its
// conversation on (dispatch/finish-inbound-events.ts), so a live run's end costs no round trip of
// its own.

/** A step's record, with the replies it sent: they are marked sent by the same statement. */
export interface StepWrite {
  runId: string;
  step: StepRecord;
  sentReplies: SentReply[];
  /** The memory write the step's action staged: committed with the record (RunRecords.step only). */
  memory?: StagedMemoryWrite | undefined;
}

/**
 * How a run ended, and its last step with the replies it sent: recorded together with the end
 * (one round trip instead of three), which is no later than before — the very next write.
 */
export interface RunEnd {
  runId: string;
  status: 'succeeded' | 'failed';
  error: StepError | null;
  finishedAt: Date;
  lastStep: StepWrite | undefined;
}

/** The columns of a `workflow_run_steps` row but its run, in the order the step CTEs insert them. */
const STEP_COLUMNS = 'position int, task text, action text, status text, reused boolean, inputs jsonb, output jsonb, error jsonb, branches jsonb, started_at timestamptz, finished_at timestamptz';

/**
 * CTEs (named after `name`) that write, for each row of `rows` (with a `run_id`), the step in its
 * jsonb column `stepColumn` (null for none) and mark the replies in `sentColumn` sent: a step's
 * record and its replies' marks in one statement. A write repeated after its answer was lost
 * changes nothing.
 */
export const STEP_WRITE_CTES = (rows: string, stepColumn: string, sentColumn: string, name: string) => `
  ${name}_step AS (
    INSERT INTO workflow_run_steps (run_id, position, task, action, status, reused, inputs, output, error, branches, started_at, finished_at)
    SELECT x.run_id, s.* FROM ${rows} AS x CROSS JOIN LATERAL jsonb_to_record(x.${stepColumn}) AS s(${STEP_COLUMNS})
     WHERE x.${stepColumn} IS NOT NULL
    ON CONFLICT (run_id, position) DO NOTHING
  ), ${SENT_REPLIES_CTES(rows, sentColumn, name)}`;

/** The columns {@link RUN_END_CTES} reads from its relation: one row per run's end. */
export const RUN_END_COLUMNS = 'run_id uuid, run_status text, run_error jsonb, run_finished_at timestamptz, last_step jsonb, last_step_sent jsonb';

/**
 * CTEs (for a `WITH` list) that record runs' ends from the relation `rows`, which has
 * {@link RUN_END_COLUMNS} (a row whose run_id is null ends no run): each run's last step is
 * inserted (unless a write whose answer was lost already did), the replies it sent marked sent,
 * and the run marked succeeded or failed. A statement that ends something else (an
 * inbound event) says these too, so a live run's end costs no round trip of its own. A late end
 * overwrites the `failed` a takeover wrote for a run its host was thought to have abandoned: the
 * run did end, and how is the truth.
 * @example sql: `WITH x AS (SELECT * FROM jsonb_to_recordset(?::jsonb) AS x(id uuid, ${RUN_END_COLUMNS})), ${RUN_END_CTES('x')} SELECT …`
 */
export const RUN_END_CTES = (rows: string) => `
  ${STEP_WRITE_CTES(rows, 'last_step', 'last_step_sent', 'ended')}, ended_runs AS (
    UPDATE workflow_runs AS r SET status = rows.run_status, error = rows.run_error, finished_at = rows.run_finished_at
      FROM ${rows} AS rows
     WHERE r.id = rows.run_id AND r.id = ANY(ARRAY(SELECT run_id FROM ${rows} WHERE run_id IS NOT NULL))
  )`;

/** A run end as the columns of {@link RUN_END_COLUMNS}; all null for none. */
export function runEndColumns(end: RunEnd | undefined): Record<string, unknown> {
  if (!end) return { run_id: null, run_status: null, run_error: null, run_finished_at: null, last_step: null, last_step_sent: null };
  return {
    run_id: end.runId,
    run_status: end.status,
    run_error: end.error,
    run_finished_at: end.finishedAt.toJSON(),
    last_step: end.lastStep ? stepColumns(end.lastStep.step) : null,
    last_step_sent: end.lastStep ? sentRepliesColumns(end.lastStep.sentReplies) : null,
  };
}

export function stepColumns(step: StepRecord): Record<string, unknown> {
  return {
    position: step.position,
    task: step.task,
    action: step.action,
    status: step.status,
    reused: step.reused,
    inputs: step.inputs,
    output: step.output,
    error: step.error,
    branches: step.branches ?? [],
    started_at: step.startedAt,
    finished_at: step.finishedAt,
  };
}
