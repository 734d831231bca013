import type { Knex } from 'knex';
import { BatchedStatement } from '../../db/batched-statement.ts';
import type { RunState } from './action.ts';
import { RUN_END_COLUMNS, RUN_END_CTES, runEndColumns, STEP_WRITE_CTES, stepColumns, type RunEnd, type StepWrite } from './run-end-sql.ts';
import { sentRepliesColumns } from '../../outbox/sent-replies-sql.ts';

interface RunStart {
  run: RunState;
  /** A test run of an unsaved draft (see RunRequest.draft). */
  draft: boolean;
  inboundEventId: string | null;
  startedAt: Date;
}

/**
 * The `workflow_runs` and `workflow_run_steps` rows every run writes, each kind batched across
 * the runs in flight (BatchedStatement): a run waits for its own row to commit, so a step is
 * never written before its run, and an end never before the run's earlier steps.
 */
export class RunRecords {
  readonly #starts: BatchedStatement<RunStart>;
  readonly #steps: BatchedStatement<StepWrite>;
  readonly #ends: BatchedStatement<RunEnd>;

  constructor(db: Knex) {
    this.#starts = new BatchedStatement(db, {
      name: 'runner-insert-runs',
      sql: `INSERT INTO workflow_runs (id, workflow_id, workflow_version, draft, mode, owner_id, source_id, thread_id, inbound_event_id, status, input, started_at)
            SELECT id, workflow_id, workflow_version, draft, mode, owner_id, source_id, thread_id, inbound_event_id, 'running', input, started_at
              FROM jsonb_to_recordset(?::jsonb) AS x(id uuid, workflow_id uuid, workflow_version int, draft boolean, mode text, owner_id text, source_id uuid,
                                                     thread_id uuid, inbound_event_id uuid, input jsonb, started_at timestamptz)`,
      toRow: ({ run, draft, inboundEventId, startedAt }) => ({
        id: run.runId,
        workflow_id: run.workflowId,
        workflow_version: run.workflowVersion,
        draft,
        mode: run.mode,
        owner_id: run.ownerId,
        source_id: run.sourceId ?? null,
        thread_id: run.threadId ?? null,
        inbound_event_id: inboundEventId,
        input: run.input,
        started_at: startedAt.toJSON(),
      }),
    });
    this.#steps = new BatchedStatement(db, {
      name: 'runner-insert-steps',
      sql: `WITH x AS (SELECT * FROM jsonb_to_recordset(?::jsonb) AS x(run_id uuid, step jsonb, sent jsonb)), ${STEP_WRITE_CTES('x', 'step', 'sent', 'written')}
            SELECT count(*) FROM x`,
      toRow: ({ runId, step, sentReplies }) => ({ run_id: runId, step: stepColumns(step), sent: sentRepliesColumns(sentReplies) }),
    });
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

  step(write: StepWrite): Promise<void> {
    return this.#steps.submit(write);
  }

  /** Records the run's last step (and the replies it sent) and its end in one statement. */
  end(end: RunEnd): Promise<void> {
    return this.#ends.submit(end);
  }
}
