import type { Knex } from 'knex';
import { BatchedStatement } from '../../db/batched-statement.ts';
import type { RunState } from './action.ts';
import type { StepError } from './describe-error.ts';
import type { StepRecord } from './workflow-runner.ts';

interface RunStart {
  run: RunState;
  inboundEventId: string | null;
  startedAt: Date;
}

interface StepWrite {
  runId: string;
  step: StepRecord;
}

interface RunFinish {
  id: string;
  status: 'succeeded' | 'failed';
  error: StepError | null;
  finishedAt: Date;
}

/**
 * The `workflow_runs` and `workflow_run_steps` rows every run writes, each kind batched across
 * the runs in flight (BatchedStatement): a run waits for its own row to commit, so a step is
 * never written before its run, and a finish never before the run's steps.
 */
export class RunRecords {
  readonly #starts: BatchedStatement<RunStart>;
  readonly #steps: BatchedStatement<StepWrite>;
  readonly #finishes: BatchedStatement<RunFinish>;

  constructor(db: Knex) {
    this.#starts = new BatchedStatement(db, {
      name: 'runner-insert-runs',
      sql: `INSERT INTO workflow_runs (id, workflow_id, workflow_version, mode, owner_id, source_id, thread_id, inbound_event_id, status, input, started_at)
            SELECT id, workflow_id, workflow_version, mode, owner_id, source_id, thread_id, inbound_event_id, 'running', input, started_at
              FROM jsonb_to_recordset(?::jsonb) AS x(id uuid, workflow_id uuid, workflow_version int, mode text, owner_id text, source_id uuid,
                                                     thread_id uuid, inbound_event_id uuid, input jsonb, started_at timestamptz)`,
      toRow: ({ run, inboundEventId, startedAt }) => ({
        id: run.runId,
        workflow_id: run.workflowId,
        workflow_version: run.workflowVersion,
        mode: run.mode,
        owner_id: run.ownerId,
        source_id: run.sourceId ?? null,
        thread_id: run.threadId ?? null,
        inbound_event_id: inboundEventId,
        input: run.input,
        started_at: startedAt,
      }),
    });
    this.#steps = new BatchedStatement(db, {
      name: 'runner-insert-steps',
      sql: `INSERT INTO workflow_run_steps (run_id, position, task, action, status, reused, inputs, output, error, started_at, finished_at)
            SELECT run_id, position, task, action, status, reused, inputs, output, error, started_at, finished_at
              FROM jsonb_to_recordset(?::jsonb) AS x(run_id uuid, position int, task text, action text, status text, reused boolean,
                                                     inputs jsonb, output jsonb, error jsonb, started_at timestamptz, finished_at timestamptz)`,
      toRow: ({ runId, step }) => ({
        run_id: runId,
        position: step.position,
        task: step.task,
        action: step.action,
        status: step.status,
        reused: step.reused,
        inputs: step.inputs,
        output: step.output,
        error: step.error,
        started_at: step.startedAt,
        finished_at: step.finishedAt,
      }),
    });
    this.#finishes = new BatchedStatement(db, {
      name: 'runner-finish-runs',
      // `id = ANY(…)`: see BatchedStatement on why a batched UPDATE names its keys twice.
      sql: `WITH x AS (SELECT * FROM jsonb_to_recordset(?::jsonb) AS x(id uuid, status text, error jsonb, finished_at timestamptz))
            UPDATE workflow_runs AS r SET status = x.status, error = x.error, finished_at = x.finished_at
              FROM x WHERE r.id = x.id AND r.id = ANY(ARRAY(SELECT id FROM x))`,
      toRow: ({ id, status, error, finishedAt }) => ({ id, status, error, finished_at: finishedAt }),
    });
  }

  start(start: RunStart): Promise<void> {
    return this.#starts.submit(start);
  }

  step(write: StepWrite): Promise<void> {
    return this.#steps.submit(write);
  }

  finish(finish: RunFinish): Promise<void> {
    return this.#finishes.submit(finish);
  }
}
