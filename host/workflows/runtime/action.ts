import type { LanguageModel, Tool } from 'ai';
import type { MemoryDefinition } from '../../memory/definitions/memory-definition.ts';
import type { UpsertCall } from '../../memory/records/upsert-if-current.ts';
import type { UpsertedRow } from '../../memory/records/upsert-records.ts';
import type { RunOutbox } from '../../outbox/run-outbox.ts';
import type { TaskDef, WorkflowDocument } from '../document/workflow-document.ts';
import type { ActionName } from './action-specs.ts';

/**
 * The contract between the workflow runner and the actions it runs. The runner evaluates a
 * task's inputs (JSONata, once), calls the action with them, and records the step; actions
 * reach memory, the outbox, the conversation history and the models only through
 * `ActionServices`, so a test run and a live run differ only in the services they are given.
 */

/** What `$input` holds: the inbound message that triggered the run. */
export interface RunInput {
  /** `text`, `quickReply`, … (the incoming message type). */
  message_type: string;
  text?: string;
  payload?: unknown;
  [key: string]: unknown;
}

/** The state of one run, shared by its steps. */
export interface RunState {
  runId: string;
  workflowId: string;
  workflowVersion: number;
  /** The memory owner: the subscriber's id, or the admin's `sub` for a test run. */
  ownerId: string;
  threadId: string | undefined;
  sourceId: string | undefined;
  mode: 'live' | 'test';
  document: WorkflowDocument;
  /** `$input` */
  input: RunInput;
  /** `$context`; `memory` holds loaded values by slug and is refreshed after each memory write. */
  context: { memory: Record<string, unknown>; [key: string]: unknown };
  /** Outputs of the tasks already run, by task name (visible to later expressions by name). */
  outputs: Record<string, unknown>;
  /** Aborted when the run is cancelled or the host shuts down. */
  signal: AbortSignal;
}

/** One step: the task to run and its inputs, already evaluated. */
export interface ActionInvocation {
  taskName: string;
  task: TaskDef;
  inputs: Record<string, unknown>;
  run: RunState;
}

/** A bound memory definition as AI tasks see it. */
export type BoundMemoryDefinition = Pick<MemoryDefinition, 'id' | 'name' | 'slug' | 'scope' | 'schema'>;

/** Memory of the run's owner, in the run's scopes (workflow, thread, run). */
/**
 * A memory write an action left for its step's record to commit: one statement for both, so a
 * retried run finds the step done exactly when its write is (see RunRecords).
 */
export interface StagedMemoryWrite {
  /** The upsert the statement recording the step makes with it (UPSERT_IF_CURRENT_CTES). */
  call: UpsertCall;
  /**
   * Told what that statement stored. When it found a definition changed (`current` false) and
   * wrote nothing, writes the values the checked way, which may reject with the store's error.
   */
  settle(written: UpsertedRow[], current: boolean): Promise<void>;
  /**
   * Shows the run the values as the statement will store them, before it has: the next step may
   * run on them while the record waits for its send (see WorkflowAction.claimsSendFirst).
   */
  preview(): void;
}

export interface RunMemory {
  /**
   * Writes complete values by slug, all or none (slug names checked first, then the store checks
   * each slug is known and the value matches its schema, so a bad write changes nothing), then refreshes
   * `run.context.memory`. Rejects with the store's coded error; nothing is written then.
   * With `withStepRecord`, within collectStagedWrite (a step whose action commits its memory with
   * the step's record), the first write the cached definitions allow is staged instead: the
   * statement recording the step commits it, and refreshes `run.context.memory` then.
   */
  update(values: Record<string, unknown>, options?: { withStepRecord?: boolean }): Promise<void>;
  /**
   * Runs a step's action, collecting the memory write it staged (see `update`); a failed action's
   * staged write is dropped. Outside it, every write is made at once.
   */
  collectStagedWrite?<T>(action: () => Promise<T>): Promise<{ result: T; staged: StagedMemoryWrite | undefined }>;
  /** The definitions bound to an AI task: its own `bindings.memory`, else the workflow's. */
  boundDefinitions(task: TaskDef): BoundMemoryDefinition[];
  /** The `# Working Memory` block for the task's bound definitions ('' when none has a value). */
  workingMemoryBlock(task: TaskDef): string;
  /** The `update_memory` AI tool limited to the task's bound slugs; undefined without bindings. */
  updateTool(task: TaskDef): Tool | undefined;
}

/** Inbound and outbound messages of the run's thread, oldest first. */
export interface ConversationHistory {
  recent(limit: number): Promise<{ role: 'user' | 'assistant'; text: string }[]>;
}

/** Resolves a task's model: the task's `bindings.model`, else the workflow's `bindings.model`. */
export interface ModelResolver {
  modelFor(task: TaskDef, document: WorkflowDocument): LanguageModel;
}

/** Runs another task of the workflow as an `ai_agent` custom tool: `$input` is the tool call's arguments. */
export interface TaskRunner {
  runTask(taskName: string, toolInput: Record<string, unknown>): Promise<unknown>;
}

export interface ActionServices {
  memory: RunMemory;
  outbox: RunOutbox;
  history: ConversationHistory;
  models: ModelResolver;
  tasks: TaskRunner;
}

/** A workflow action: runs one task with evaluated inputs; its result is the task's output. */
export interface WorkflowAction {
  readonly name: ActionName;
  /**
   * Run as a step of its own (not as an agent's tool), its memory write is staged and committed
   * with the step's record (RunMemory.update's `withStepRecord`).
   */
  readonly commitsMemoryWithStep?: boolean;
  /**
   * The action's first write is a send's claim, and it reads nothing the previous step's record
   * writes but the memory: that record may then commit in the claim's statement, one round trip
   * fewer (a greeting's memory write and its reply).
   */
  readonly claimsSendFirst?: boolean;
  run(invocation: ActionInvocation, services: ActionServices): Promise<unknown>;
}
