import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { AppError } from '../../errors/app-error.ts';
import type { WorkflowDocument, TaskDef } from '../document/workflow-document.ts';
import type {
  ActionServices,
  ConversationHistory,
  ModelResolver,
  RunInput,
  RunMemory,
  RunState,
  StagedMemoryWrite,
  WorkflowAction,
} from './action.ts';
import type { RunOutbox } from '../../outbox/run-outbox.ts';
import { isActionName } from './action-specs.ts';
import { BranchLog } from '../expressions/branch-log.ts';
import { describeStepError, type StepError } from './describe-step-error.ts';
import { CarriedRecord } from './carried-record.ts';
import { RunRecords, runStartRowOf, type RunStartRow } from './run-records.ts';
import type { RunEnd, StepWrite } from './run-end-sql.ts';
import type { StepRecord } from './step-record.ts';

/**
 * How deep agent tools may nest (an agent's tool that is an agent calling a tool, …). Saving
 * refuses tool cycles; this bounds a document that escaped that check, e.g. one saved earlier.
 */
const MAX_TOOL_DEPTH = 3;

/** A run's memory plus the clean-up the runner owes it (run-scope records removed). */
export type RunMemoryHandle = RunMemory & {
  end(): Promise<void>;
  /** False when no bound definition is thread-scoped, so the run's thread does not change what it reads; unset counts as true. */
  readsThread?: boolean;
};

export interface WorkflowRunnerDeps {
  db: Knex;
  now: () => Date;
  actions: ReadonlyMap<string, WorkflowAction>;
  /** Evaluates a task's inputs for the run (JSONata, once, with a time limit), logging the branches its conditionals took. */
  evaluateInputs(inputs: Record<string, unknown>, run: RunState, branches?: BranchLog): Promise<Record<string, unknown>>;
  /** Loads the run's memory into `run.context.memory` and returns its handle. */
  openMemory(run: RunState): Promise<RunMemoryHandle>;
  models: ModelResolver;
}

/** Whom a run is for: the owner of its memory, its thread and the extra `$context` fields. */
export interface RunParty {
  ownerId: string;
  threadId?: string | undefined;
  /** Extra `$context` fields (the subscriber, the source). */
  context?: Record<string, unknown>;
}

/**
 * A run whose start the caller records in a statement of its own, learning only then whom the
 * run is for: the dispatcher enters the conversation (finding the subscriber and the thread) and
 * starts the run in one round trip, while the run's memory is read side by side for the owner it
 * expects. Memory read for another owner than `start` returns, or before a thread-scoped
 * definition knew its thread, is read again.
 */
export interface RunStarter {
  /** The owner the run most likely has, or undefined: its memory is then read after `start`. */
  expectedOwnerId: string | undefined;
  /** Records `row` for the run's owner and thread, and returns them. */
  start(row: RunStartRow): Promise<RunParty & { threadId: string }>;
}

interface RunRequestCommon {
  workflowId: string;
  workflowVersion: number;
  document: WorkflowDocument;
  mode: 'live' | 'test';
  /**
   * The document is an unsaved draft (a test run of what the editor shows): `workflowVersion` is
   * then the version it was edited from, not what ran. Recorded as `workflow_runs.draft`.
   */
  draft?: boolean;
  input: RunInput;
  sourceId?: string;
  inboundEventId?: string;
  /**
   * Whether an earlier attempt of the same event may have completed steps to reuse (see
   * `#journal`); false skips looking, the common case of a first attempt.
   */
  reuseEarlierSteps?: boolean;
  /** The outbox of the step at `position`: live sends are keyed by it. */
  outboxFor(position: number, run: RunState): RunOutbox;
  history: ConversationHistory;
  signal?: AbortSignal;
  /**
   * Leave the run's end (its last step and its status) to the caller, returned as `end`, for it
   * to record in a write of its own: the dispatcher records it with the inbound event's outcome,
   * one round trip for both. Until then the run reads `running`; if the caller never records it,
   * the next claim of the event ends it as abandoned.
   */
  deferEnd?: boolean;
}

/** A run for a known party, started by the runner's own insert, or one the caller starts (RunStarter). */
export type RunRequest = RunRequestCommon & (RunParty | { starter: RunStarter });

export interface RunResult {
  runId: string;
  status: 'succeeded' | 'failed';
  steps: StepRecord[];
  error: StepError | null;
  /** With `deferEnd`: what the caller must record (see RUN_END_CTES). */
  end?: RunEnd;
}

/**
 * Runs a workflow's `flow` in order: each step's inputs are evaluated, its action is run, and the
 * step is recorded with its status, output or error in `workflow_run_steps`. The first failing
 * step ends the run. Whatever the outcome, the run-scope memory is removed and the run is
 * marked succeeded or failed (with `deferEnd`, by the caller).
 */
export class WorkflowRunner {
  readonly #records: RunRecords;

  constructor(private readonly deps: WorkflowRunnerDeps) {
    this.#records = new RunRecords(deps.db);
  }

  async run(request: RunRequest): Promise<RunResult> {
    const runId = randomUUID();
    const starter = 'starter' in request ? request.starter : undefined;
    const party: RunParty = starter ? { ownerId: starter.expectedOwnerId ?? '' } : (request as RunParty);
    const run: RunState = {
      runId,
      workflowId: request.workflowId,
      workflowVersion: request.workflowVersion,
      ownerId: party.ownerId,
      threadId: party.threadId,
      sourceId: request.sourceId,
      mode: request.mode,
      document: request.document,
      input: request.input,
      context: { ...party.context, memory: {} },
      outputs: {},
      signal: request.signal ?? new AbortController().signal,
    };
    // The run's start, its step journal and its memory are independent round trips: run them side
    // by side. Only reads overlap the start, and no step starts before it committed.
    const reading = starter && starter.expectedOwnerId === undefined ? undefined : this.deps.openMemory(run);
    const [started, opened] = await Promise.allSettled([this.#start(run, request, starter), Promise.all([this.#journal(request), reading])]);
    if (started.status === 'rejected') throw started.reason;
    const steps: StepRecord[] = [];
    /** The last step's record, not yet committed (see #runSteps). */
    const progress: { unrecorded: StepWrite | undefined } = { unrecorded: undefined };
    let error: StepError | null;
    let memory: RunMemoryHandle | undefined;
    try {
      if (opened.status === 'rejected') throw opened.reason;
      const [journal, openedMemory] = opened.value;
      // Read for an owner the start did not confirm, or before the thread it reads was known: again.
      const stale = starter !== undefined && (run.ownerId !== starter.expectedOwnerId || openedMemory?.readsThread !== false);
      memory = openedMemory === undefined || stale ? await this.deps.openMemory(run) : openedMemory;
      error = await this.#runSteps(run, request, journal, memory, steps, progress);
    } catch (failure) {
      error = describeStepError(failure);
    }
    try {
      await memory?.end();
    } catch (failure) {
      // The run still ends, and its last step and replies are still recorded.
      error ??= describeStepError(failure);
    }
    const status = error ? 'failed' : 'succeeded';
    // The last step is recorded with the end, by the very next write as before, in one round trip.
    // One whose memory write is still staged (a failure cut its commit short) is left out with
    // it: the end records no memory, and a retry must not find the step done without its write.
    const lastStep = progress.unrecorded?.memory ? undefined : progress.unrecorded;
    const end: RunEnd = { runId, status, error, finishedAt: this.deps.now(), lastStep };
    if (request.deferEnd) return { runId, status, steps, error, end };
    await this.#records.end(end);
    return { runId, status, steps, error };
  }

  /**
   * Runs the flow's steps in order, the first failing one ending it; returns its error. Each
   * step's record (with the replies it sent marked, and the memory write it staged) commits before
   * the next step starts, so a retry reuses what it finds and the next step's history holds the
   * replies; or, when the next step's first write is a send (`claimsSendFirst`), in the statement
   * that claims that send (CarriedRecord), one round trip for both. The last step's record is left
   * in `progress.unrecorded` for the run's end, its memory write committed first.
   */
  async #runSteps(
    run: RunState,
    request: RunRequest,
    journal: Map<number, { task: string; output: unknown }>,
    memory: RunMemoryHandle,
    steps: StepRecord[],
    progress: { unrecorded: StepWrite | undefined },
  ): Promise<StepError | null> {
    /** Commits the pending record; false when its memory write was refused, which failed its step and ends the run. */
    const commitPending = async (knownStale = false): Promise<boolean> => {
      const failed = await this.#record(progress.unrecorded!, knownStale);
      progress.unrecorded = failed;
      if (failed) steps[steps.length - 1] = failed.step;
      return failed === undefined;
    };
    for (const [position, step] of request.document.flow.entries()) {
      const done = journal.get(position);
      if (done?.task === step.do) {
        if (progress.unrecorded && !(await commitPending())) return progress.unrecorded!.step.error;
        progress.unrecorded = { runId: run.runId, step: this.#reuseStep(position, done, run), sentReplies: [] };
        steps.push(progress.unrecorded.step);
        continue;
      }
      const outbox = request.outboxFor(position, run);
      const carried = progress.unrecorded && outbox.carryFirstClaim && this.#claimsSendFirst(step.do, run) ? new CarriedRecord(progress.unrecorded, this.#records) : undefined;
      if (carried) {
        // The step sees the memory the record writes before it is written, as it will be stored.
        carried.write.memory?.preview();
        outbox.carryFirstClaim!(carried.claimer);
      } else if (progress.unrecorded && !(await commitPending())) {
        return progress.unrecorded!.step.error;
      }
      let write = await this.#runStep(position, step.do, run, memory, outbox, request.history);
      if (carried?.fate === 'lost') {
        // The statement's answer was lost: it may have committed. Neither it nor the send goes
        // again in this attempt; the event's retry finds what committed (the step, the claim).
        steps.push(write.step);
        progress.unrecorded = write;
        return write.step.error;
      }
      if (carried && carried.fate !== 'carried') {
        // The step sent nothing (no send, or its first failed with the record): the record
        // commits now, the checked way when a definition changed under its memory write.
        if (!(await commitPending(carried.fate === 'stale'))) return progress.unrecorded!.step.error;
        // It ran on a memory write not made as shown, or failed with the record: it runs again.
        if (carried.fate !== 'waiting' || carried.write.memory) write = await this.#runStep(position, step.do, run, memory, request.outboxFor(position, run), request.history);
      }
      progress.unrecorded = write;
      steps.push(write.step);
      if (write.step.error) return write.step.error;
    }
    // The end records no memory: a staged write of the last step commits with its record now.
    if (progress.unrecorded?.memory && !(await commitPending())) return progress.unrecorded!.step.error;
    return null;
  }

  /** Whether a task's action makes a send its first write, so an earlier record may ride with its claim. */
  #claimsSendFirst(taskName: string, run: RunState): boolean {
    const task = run.document.defs[taskName] as TaskDef | undefined;
    return task !== undefined && isActionName(task.action) && this.deps.actions.get(task.action)?.claimsSendFirst === true;
  }

  /**
   * Commits a step's record; undefined once committed, or the step's record failed when its
   * staged memory write was refused (see #recordWithMemory).
   */
  async #record(write: StepWrite, knownStale = false): Promise<StepWrite | undefined> {
    if (!write.memory) {
      await this.#records.step(write);
      return undefined;
    }
    return this.#recordWithMemory({ ...write, memory: write.memory }, knownStale);
  }

  /**
   * The steps an earlier attempt of the same event (same workflow version) completed. A retried
   * run reuses their outputs instead of running them again, so a memory write, a model call or
   * a counter increment happens once per event, not once per attempt.
   */
  async #journal(request: RunRequest): Promise<Map<number, { task: string; output: unknown }>> {
    if (!request.inboundEventId || !request.reuseEarlierSteps) return new Map();
    const rows: { position: number; task: string; output: unknown }[] = await this.deps.db('workflow_run_steps as s')
      .join('workflow_runs as r', 'r.id', 's.run_id')
      .where({ 'r.inbound_event_id': request.inboundEventId, 'r.workflow_version': request.workflowVersion, 's.status': 'succeeded' })
      .orderBy('r.started_at', 'asc')
      .select('s.position', 's.task', 's.output');
    return new Map(rows.map((row) => [row.position, { task: row.task, output: row.output }]));
  }

  #reuseStep(position: number, done: { task: string; output: unknown }, run: RunState): StepRecord {
    const task = run.document.defs[done.task] as TaskDef;
    run.outputs[done.task] = done.output;
    const at = this.deps.now().toISOString();
    return {
      position,
      task: done.task,
      action: task.action,
      status: 'succeeded',
      reused: true,
      inputs: null,
      output: done.output,
      error: null,
      startedAt: at,
      finishedAt: at,
    };
  }

  /** Runs a step; its record is written by the caller, with the replies it sent. */
  async #runStep(position: number, taskName: string, run: RunState, memory: RunMemory, outbox: RunOutbox, history: ConversationHistory): Promise<StepWrite> {
    const task = run.document.defs[taskName] as TaskDef;
    const startedAt = this.deps.now();
    let inputs: Record<string, unknown> | null = null;
    let output: unknown = null;
    let error: StepError | null = null;
    const branches = new BranchLog();
    let staged: StagedMemoryWrite | undefined;
    try {
      inputs = await this.deps.evaluateInputs(task.inputs ?? {}, run, branches);
      const services = this.#services(run, memory, outbox, history);
      const action = this.#action(task);
      const runAction = () => action.run({ taskName, task, inputs: inputs!, run }, services);
      // Only a step whose own action commits its write with the record collects: an agent's tools
      // (a custom tool running update_memory among them) write at once, as the model is told.
      const collects = action.commitsMemoryWithStep === true && memory.collectStagedWrite !== undefined;
      const ran = collects ? await memory.collectStagedWrite!(runAction) : { result: await runAction(), staged: undefined };
      output = ran.result ?? null;
      staged = ran.staged;
      run.outputs[taskName] = output;
    } catch (failure) {
      error = describeStepError(failure);
    }
    const step: StepRecord = {
      position,
      task: taskName,
      action: task.action,
      status: error ? 'failed' : 'succeeded',
      reused: false,
      inputs,
      output,
      error,
      branches: branches.taken(),
      startedAt: startedAt.toISOString(),
      finishedAt: this.deps.now().toISOString(),
    };
    // A failed step's replies sent before it failed are marked too.
    return { runId: run.runId, step, sentReplies: outbox.takeSentReplies(), memory: staged };
  }

  /**
   * Records a step with the memory write its action staged, in one statement: the step is done
   * exactly when its write is, so a retried run never applies a write twice. Undefined once
   * recorded. When a definition changed under the staged write, the write is made again against
   * the current one, then the step recorded; refused then, the step failed, and it is returned
   * unrecorded (failed) for the run's end. `knownStale`: a statement that carried it found the
   * definition changed already. That fallback is two commits, as every write was
   * before: a crash between them (during a definition change) makes the retry write again.
   */
  async #recordWithMemory(write: StepWrite & { memory: StagedMemoryWrite }, knownStale: boolean): Promise<StepWrite | undefined> {
    const { memoryCurrent, memoryWritten } = knownStale ? { memoryCurrent: false, memoryWritten: [] } : await this.#records.step(write);
    try {
      await write.memory.settle(memoryWritten, memoryCurrent);
    } catch (failure) {
      const step: StepRecord = { ...write.step, status: 'failed', output: null, error: describeStepError(failure), finishedAt: this.deps.now().toISOString() };
      return { ...write, step, memory: undefined };
    }
    if (!memoryCurrent) await this.#records.step({ ...write, memory: undefined });
    return undefined;
  }

  #services(run: RunState, memory: RunMemory, outbox: RunOutbox, history: ConversationHistory, toolDepth = 0): ActionServices {
    return {
      memory,
      outbox,
      history,
      models: this.deps.models,
      tasks: {
        // An agent's custom tool: the named task with the tool call's arguments as `$input`.
        runTask: async (taskName, toolInput) => {
          if (toolDepth >= MAX_TOOL_DEPTH) {
            throw new AppError('BOT_ERR_WORKFLOW_TOOL_DEPTH_EXCEEDED', `Tool "${taskName}" would nest deeper than ${MAX_TOOL_DEPTH} agent tool calls`, { task: taskName, maxDepth: MAX_TOOL_DEPTH });
          }
          const task = run.document.defs[taskName] as TaskDef;
          const toolRun: RunState = { ...run, input: { message_type: 'tool_call', ...toolInput } };
          const inputs = await this.deps.evaluateInputs(task.inputs ?? {}, toolRun);
          return this.#action(task).run({ taskName, task, inputs, run: toolRun }, this.#services(toolRun, memory, outbox, history, toolDepth + 1));
        },
      },
    };
  }

  #action(task: TaskDef): WorkflowAction {
    const action = isActionName(task.action) ? this.deps.actions.get(task.action) : undefined;
    if (!action) throw Object.assign(new Error(`Unknown action "${task.action}"`), { code: 'BOT_ERR_WORKFLOW_ACTION_UNKNOWN' });
    return action;
  }

  /** Records the run's start: the runner's own insert, or the caller's (then the run learns its party). */
  async #start(run: RunState, request: RunRequest, starter: RunStarter | undefined): Promise<void> {
    const start = { run, draft: request.draft ?? false, inboundEventId: request.inboundEventId ?? null, startedAt: this.deps.now() };
    if (!starter) return this.#records.start(start);
    const party = await starter.start(runStartRowOf(start));
    run.ownerId = party.ownerId;
    run.threadId = party.threadId;
    // The memory read side by side may have landed already: kept, whatever the party adds.
    run.context = { ...run.context, ...party.context, memory: run.context.memory };
  }
}
