import type { StdOutgoingMessageEnvelope } from '@bot-ai/api';
import type { Knex } from 'knex';
import { z } from 'zod';
import { fetchSortedPage, isUuid, whereUuid } from '../db/fetch-sorted-page.ts';
import { AppError } from '../errors/app-error.ts';
import { listQuerySchema, pageSchema } from '../http/list-query.ts';
import { defineRoute, type RouteDefinition } from '../http/route-definition.ts';
import { subscriberDisplayNames } from '../conversations/subscriber-display-name.ts';
import { failedStepTasks } from './failed-step-tasks.ts';
import { conversationMessageSchema, threadConversation } from './run-conversation.ts';
import { MAX_RUN_SEARCH_CHARS, whereRunMatches } from './run-search.ts';
import type { StepError } from './runtime/describe-step-error.ts';
import { explainError } from './runtime/plain-error.ts';
import type { RunOutbox } from '../outbox/run-outbox.ts';
import type { WorkflowRunner } from './runtime/workflow-runner.ts';
import type { WorkflowStore } from './storage/workflow-store.ts';
import { MAX_WORKFLOW_VERSION, workflowYaml } from './workflows.routes.ts';
import { testRunConversation, testRunHistorySchema } from './test-run-history.ts';
import { testOwnerId, testOwnerNameSchema } from '../memory/records/test-owner.ts';

const TAG = 'runs';

const stepErrorSchema = z.object({
  code: z.string(),
  message: z.string(),
  details: z.unknown().optional(),
  retryAfterMs: z.number().optional().describe('The wait the platform asked for before trying again (Retry-After), when it said one'),
  summary: z.string().describe('One plain sentence: what failed, in which step, and what to do'),
  chain: z.array(z.string()).describe('The technical messages, outermost first, each said once'),
});

const stepSchema = z.object({
  position: z.number().int(),
  task: z.string(),
  action: z.string(),
  status: z.enum(['succeeded', 'failed']),
  reused: z.boolean().describe('Taken from an earlier attempt of the same event, not run again'),
  inputs: z.record(z.string(), z.unknown()).nullable().describe('The inputs after evaluation'),
  output: z.unknown(),
  error: stepErrorSchema.nullable(),
  branches: z
    .array(z.object({ input: z.string(), index: z.number().int(), took: z.enum(['then', 'else', 'both']) }))
    .describe("The way each conditional (`test ? then : else`) of the inputs went: `input` is its path under `inputs`, `index` its rank by the order of its `?`; one never evaluated is absent"),
  startedAt: z.string(),
  finishedAt: z.string(),
});

const runSchema = z.object({
  id: z.uuid(),
  workflowId: z.string(),
  workflowVersion: z.number().int(),
  mode: z.enum(['live', 'test']),
  draft: z.boolean().describe('A test run of an unsaved draft: `workflowVersion` is then the version it was edited from, not what ran'),
  ownerId: z.string(),
  subscriberName: z
    .string()
    .nullable()
    .describe("The owning subscriber's display name for a live run (the platform's name, a `name` a workflow remembered, or \"Web visitor 3f2a\"); null for a test run"),
  sourceId: z.string().nullable(),
  threadId: z.string().nullable(),
  inboundEventId: z.string().nullable().describe('The event that triggered a live run'),
  status: z.enum(['running', 'succeeded', 'failed']),
  input: z.record(z.string(), z.unknown()),
  error: stepErrorSchema.nullable(),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
});

const testRunSchema = runSchema.extend({
  steps: z.array(stepSchema),
  messages: z.array(z.record(z.string(), z.unknown())).describe('What the run would have sent; a test run sends nothing'),
});

const testRunBody = z
  .object({
    input: z
      .looseObject({ text: z.string().optional(), payload: z.unknown().optional(), message_type: z.string().optional() })
      .describe('`$input`: the sample inbound message'),
    ownerId: testOwnerNameSchema
      .optional()
      .describe("Names the test memory owner `test:<ownerId>` (default: the caller's token subject); never a real subscriber"),
    version: z.number().int().positive().max(MAX_WORKFLOW_VERSION).optional().describe('Default: the current version'),
    yaml: workflowYaml
      .optional()
      .describe('An unsaved draft to run instead of a saved version: validated exactly as a save (422 BOT_ERR_WORKFLOW_INVALID), saved nowhere; not with `version`'),
    history: testRunHistorySchema.optional(),
  })
  .strict();

interface RunRow {
  id: string;
  workflow_id: string;
  workflow_version: number;
  draft: boolean;
  mode: 'live' | 'test';
  owner_id: string;
  source_id: string | null;
  thread_id: string | null;
  inbound_event_id: string | null;
  status: 'running' | 'succeeded' | 'failed';
  input: Record<string, unknown>;
  error: StepError | null;
  started_at: Date;
  finished_at: Date | null;
}

export interface RunRouteDeps {
  db: Knex;
  workflows: WorkflowStore;
  runner: WorkflowRunner;
}

/** Test runs of a workflow and the run history. */
export function runRoutes({ db, workflows, runner }: RunRouteDeps): RouteDefinition[] {
  return [
    defineRoute({
      method: 'POST', path: '/api/workflows/:id/runs', operationId: 'testRunWorkflow', tag: TAG, permission: 'run:create',
      summary:
        "Run a workflow on a sample input: each step's output and the messages it would send (sent to nobody). " +
        'Runs a saved version (`version`, default the current one), or with `yaml` an unsaved draft, validated as a save would and saved nowhere',
      params: z.object({ id: z.string() }), body: testRunBody, errors: [404],
      success: { status: 200, description: 'The finished test run', schema: testRunSchema },
      async handle({ params, body, principal }) {
        if (body.yaml !== undefined && body.version !== undefined) {
          throw new AppError('BOT_ERR_RUN_DRAFT_WITH_VERSION', 'Give either `yaml` (an unsaved draft) or `version`, not both', { fields: ['yaml', 'version'] });
        }
        // A draft run records the current version, the one the draft was edited from (the column
        // is NOT NULL), and `draft: true`, which says that version is not what ran.
        const version = body.yaml === undefined ? await workflows.getVersion(params.id, body.version) : await workflows.draftVersion(params.id, body.yaml);
        const messages: StdOutgoingMessageEnvelope[] = [];
        const collecting: RunOutbox = { send: async (envelope) => (messages.push(envelope), { mid: undefined }), takeSentReplies: () => [] };
        const transcript: { role: 'user' | 'assistant'; text: string }[] = body.input.text ? [{ role: 'user', text: body.input.text }] : [];
        const result = await runner.run({
          workflowId: version.workflowId,
          workflowVersion: version.version,
          document: version.document,
          // Test owners live in a namespace of their own: run:create must not read or overwrite a
          // subscriber's memory (that takes memory_record permissions).
          ownerId: testOwnerId(body.ownerId, principal),
          mode: 'test',
          draft: body.yaml !== undefined,
          input: { message_type: body.input.message_type ?? 'text', ...body.input },
          outboxFor: () => collecting,
          // A test run has no thread: its history is the test chat's earlier turns, the sample
          // message and what the run says.
          history: testRunConversation([...(body.history ?? []), ...transcript], () => messages.map(assistantText)),
        });
        const run = await readRun(db, result.runId);
        const steps = result.steps.map((step) => ({ ...step, error: step.error && explainError(step.error, step.task, 'test'), branches: step.branches ?? [] }));
        return { ...toView(run!, undefined, failedTask(result.steps)), steps, messages };
      },
    }),
    defineRoute({
      method: 'GET', path: '/api/runs', operationId: 'listRuns', tag: TAG, permission: 'run:read',
      summary: "Workflow runs, newest first; filter by workflow, status, mode or owner; q searches a run or subscriber id prefix, the subscriber's name and the error",
      query: listQuerySchema(['startedAt', 'status'], '-startedAt').extend({
        workflowId: z.string().optional(),
        status: z.enum(['running', 'succeeded', 'failed']).optional(),
        mode: z.enum(['live', 'test']).optional(),
        ownerId: z.string().min(1).max(200).optional().describe("Only this owner's runs: a subscriber's id, or `test:<name>` for test runs"),
        q: z
          .string()
          .trim()
          .max(MAX_RUN_SEARCH_CHARS)
          .optional()
          .describe("Case-insensitive: a run's or subscriber's id or its first hex digits (\"3f2a\", \"Web visitor 3f2a\"), a subscriber's name, a test owner, an error's code or message"),
      }),
      success: { status: 200, description: 'One page and the total', schema: pageSchema(runSchema) },
      async handle({ query }) {
        const filtered = db('workflow_runs').modify((builder) => {
          if (query.workflowId !== undefined) whereUuid(builder, 'workflow_id', query.workflowId);
          if (query.status) builder.where({ status: query.status });
          if (query.mode) builder.where({ mode: query.mode });
          if (query.ownerId !== undefined) builder.where({ owner_id: query.ownerId });
          if (query.q) whereRunMatches(db, builder, query.q);
        });
        const page = await fetchSortedPage<RunRow>(filtered, { sortSql: { startedAt: 'started_at', status: 'status' }, fallback: 'started_at', ...query });
        const [names, tasks] = await Promise.all([
          subscriberDisplayNames(db, page.items.map((row) => row.owner_id)),
          failedStepTasks(db, page.items.filter((row) => row.error).map((row) => row.id)),
        ]);
        return { items: page.items.map((row) => toView(row, names.get(row.owner_id), tasks.get(row.id))), total: page.total };
      },
    }),
    defineRoute({
      method: 'GET', path: '/api/runs/:id', operationId: 'getRun', tag: TAG, permission: 'run:read',
      summary: "A run with its steps and its thread's last messages", params: z.object({ id: z.string() }), errors: [404],
      success: {
        status: 200,
        description: 'The run',
        schema: runSchema.extend({
          steps: z.array(stepSchema),
          conversation: z.array(conversationMessageSchema).describe("The last messages of the run's thread, oldest first; empty for a test run"),
        }),
      },
      async handle({ params }) {
        const run = isUuid(params.id) ? await readRun(db, params.id) : undefined;
        if (!run) throw new AppError('BOT_ERR_RUN_NOT_FOUND', 'No run has this id');
        const [steps, names, conversation] = await Promise.all([
          db('workflow_run_steps').where({ run_id: run.id }).orderBy('position'),
          subscriberDisplayNames(db, [run.owner_id]),
          threadConversation(db, run.thread_id),
        ]);
        const stepViews = steps.map((step) => toStepView(step, run.mode));
        return { ...toView(run, names.get(run.owner_id), failedTask(stepViews)), steps: stepViews, conversation };
      },
    }),
  ];
}

function assistantText(envelope: StdOutgoingMessageEnvelope): { role: 'assistant'; text: string } {
  const text = (envelope.data as { text?: unknown }).text;
  return { role: 'assistant', text: typeof text === 'string' ? text : '' };
}

function readRun(db: Knex, id: string): Promise<RunRow | undefined> {
  return db('workflow_runs').where({ id }).first();
}

/** The task of the last failed step: the run's error is that step's. */
function failedTask(steps: readonly { task: string; status: string }[]): string | undefined {
  return steps.findLast((step) => step.status === 'failed')?.task;
}

function toView(row: RunRow, subscriberName: string | undefined, failedTask: string | undefined): z.input<typeof runSchema> {
  return {
    id: row.id,
    workflowId: row.workflow_id,
    workflowVersion: row.workflow_version,
    draft: row.draft,
    mode: row.mode,
    ownerId: row.owner_id,
    subscriberName: subscriberName ?? null,
    sourceId: row.source_id,
    threadId: row.thread_id,
    inboundEventId: row.inbound_event_id,
    status: row.status,
    input: row.input,
    error: row.error && explainError(row.error, failedTask, row.mode),
    startedAt: row.started_at.toISOString(),
    finishedAt: row.finished_at?.toISOString() ?? null,
  };
}

function toStepView(row: Record<string, unknown>, mode: RunRow['mode']): z.input<typeof stepSchema> {
  return {
    position: row.position as number,
    task: row.task as string,
    action: row.action as string,
    status: row.status as 'succeeded' | 'failed',
    reused: row.reused as boolean,
    inputs: row.inputs as Record<string, unknown> | null,
    output: row.output,
    error: row.error ? explainError(row.error as StepError, row.task as string, mode) : null,
    branches: (row.branches as z.infer<typeof stepSchema>['branches'] | null) ?? [],
    startedAt: (row.started_at as Date).toISOString(),
    finishedAt: (row.finished_at as Date).toISOString(),
  };
}
