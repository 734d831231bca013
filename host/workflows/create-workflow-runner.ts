import type { Knex } from 'knex';
import type { MemoryRecordStore } from '../memory/records/memory-record-store.ts';
import { evaluateInputs } from './expressions/evaluate-inputs.ts';
import { openRunMemory } from './memory/run-memory.ts';
import type { ModelResolver } from './runtime/action.ts';
import { WorkflowRunner } from './runtime/workflow-runner.ts';
import { WORKFLOW_ACTIONS } from './workflow-actions.ts';

export interface WorkflowRunnerOptions {
  db: Knex;
  now: () => Date;
  memoryRecords: MemoryRecordStore;
  models: ModelResolver;
  /** BOT_WORKFLOW_EXPRESSION_TIMEOUT_MS */
  expressionTimeoutMs: number;
}

/** The runner with every action, JSONata inputs and stored memory. */
export function createWorkflowRunner(options: WorkflowRunnerOptions): WorkflowRunner {
  return new WorkflowRunner({
    db: options.db,
    now: options.now,
    actions: WORKFLOW_ACTIONS,
    evaluateInputs: (inputs, run, branches) => evaluateInputs(inputs, run, { timeoutMs: options.expressionTimeoutMs, branches }),
    openMemory: (run) => openRunMemory(run, { db: options.db, records: options.memoryRecords }),
    models: options.models,
  });
}
