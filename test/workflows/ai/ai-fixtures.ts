import type { StdOutgoingMessageEnvelope } from '@bot-ai/api';
import nock from 'nock';
import type { Config } from '../../../host/config/config.schema.ts';
import type { TaskDef, WorkflowDocument } from '../../../host/workflows/document/workflow-document.ts';
import { createModelResolver } from '../../../host/workflows/models/model-resolver.ts';
import type { NamedApiKey } from '../../../host/config/named-api-keys.ts';
import type {
  ActionInvocation,
  ActionServices,
  ConversationHistory,
  ModelResolver,
  RunMemory,
  RunState,
  TaskRunner,
} from '../../../host/workflows/runtime/action.ts';
import type { RunOutbox } from '../../../host/outbox/run-outbox.ts';

/** The mocked OpenAI-compatible server (BOT_AI_BASE_URL) and its key (BOT_AI_API_KEY). */
export const AI_ORIGIN = 'http://llm.test';
export const AI_BASE_URL = `${AI_ORIGIN}/v1`;
export const AI_API_KEY = 'sk-test-0123456789-very-secret';

export type AiConfig = Pick<
  Config,
  'BOT_AI_BASE_URL' | 'BOT_AI_API_KEY' | 'BOT_AI_ALLOW_WORKFLOW_BASE_URL' | 'BOT_AI_REQUEST_TIMEOUT_MS' | 'BOT_AI_MAX_RETRIES'
>;

export const TEST_AI_CONFIG: AiConfig = {
  BOT_AI_BASE_URL: AI_BASE_URL,
  BOT_AI_API_KEY: AI_API_KEY,
  BOT_AI_ALLOW_WORKFLOW_BASE_URL: false,
  BOT_AI_REQUEST_TIMEOUT_MS: 1_000,
  BOT_AI_MAX_RETRIES: 0,
};

export function testModels(config: Partial<AiConfig> = {}, namedApiKeys: ReadonlyMap<string, NamedApiKey> = new Map()): ModelResolver {
  return createModelResolver({ config: { ...TEST_AI_CONFIG, ...config }, namedApiKeys });
}

/** A model def for the mocked server, and one for the offline model. */
export const CHAT_MODEL = { kind: 'model', settings: { provider: 'openai-compatible', model_id: 'gpt-test' } } as const;
export const OFFLINE_MODEL = { kind: 'model', settings: { provider: 'offline', model_id: 'demo' } } as const;

/** An outbox that keeps what it is given (the real one is the runner's). */
export class RecordingOutbox implements RunOutbox {
  readonly sent: StdOutgoingMessageEnvelope[] = [];
  async send(envelope: StdOutgoingMessageEnvelope): Promise<{ mid: string | undefined }> {
    this.sent.push(envelope);
    return { mid: `mid-${this.sent.length}` };
  }

  takeSentReplies(): [] {
    return [];
  }
}

export type HistoryEntry = { role: 'user' | 'assistant'; text: string };

/** A thread's messages, oldest first; remembers the limits it was asked for. */
export class FixedHistory implements ConversationHistory {
  readonly limits: number[] = [];
  constructor(private readonly entries: HistoryEntry[] = []) {}
  async recent(limit: number): Promise<HistoryEntry[]> {
    this.limits.push(limit);
    return this.entries.slice(-limit);
  }
}

/** Records the agent's tool calls and answers each with `answer`. */
export class RecordingTasks implements TaskRunner {
  readonly calls: { taskName: string; toolInput: Record<string, unknown> }[] = [];
  constructor(private readonly answer: unknown = { ok: true }) {}
  async runTask(taskName: string, toolInput: Record<string, unknown>): Promise<unknown> {
    this.calls.push({ taskName, toolInput });
    return this.answer;
  }
}

/** A RunMemory with no bindings, for tests about something else. */
export const NO_MEMORY: RunMemory = {
  update: async () => {},
  boundDefinitions: () => [],
  workingMemoryBlock: () => '',
  updateTool: () => undefined,
};

export function services(parts: Partial<ActionServices> = {}): ActionServices {
  return {
    memory: NO_MEMORY,
    outbox: new RecordingOutbox(),
    history: new FixedHistory(),
    models: testModels(),
    tasks: new RecordingTasks(),
    ...parts,
  };
}

/** A run of `document`, its inbound message saying `text`. */
export function runOf(document: WorkflowDocument, text = 'hello', overrides: Partial<RunState> = {}): RunState {
  return {
    runId: crypto.randomUUID(),
    workflowId: 'workflow-ai',
    workflowVersion: 1,
    ownerId: 'subscriber-ai',
    threadId: 'thread-ai',
    sourceId: undefined,
    mode: 'test',
    document,
    input: { message_type: 'text', text },
    context: { memory: {} },
    outputs: {},
    signal: new AbortController().signal,
    ...overrides,
  };
}

/** One task of `run`'s document, with `inputs` as the runner would have evaluated them. */
export function invocationOf(run: RunState, taskName: string, inputs: Record<string, unknown>): ActionInvocation {
  return { taskName, task: run.document.defs[taskName] as TaskDef, inputs, run };
}

/** A document with one model def and the given tasks, the model bound for the whole workflow. */
export function documentWith(tasks: Record<string, Omit<TaskDef, 'kind'>>, extraDefs: WorkflowDocument['defs'] = {}, model: WorkflowDocument['defs'][string] = CHAT_MODEL): WorkflowDocument {
  const taskDefs = Object.fromEntries(Object.entries(tasks).map(([name, task]) => [name, { kind: 'task' as const, ...task }]));
  return {
    defs: { chat: model, ...extraDefs, ...taskDefs },
    bindings: { model: 'chat' },
    flow: Object.keys(tasks).map((name) => ({ do: name })),
  };
}

/** An OpenAI chat completion answering `content`, or calling the given tools. */
export function completion(answer: { content?: string; toolCalls?: { name: string; arguments: unknown }[] }): object {
  const toolCalls = answer.toolCalls?.map((call, index) => ({
    id: `call_${index + 1}`,
    type: 'function',
    function: { name: call.name, arguments: JSON.stringify(call.arguments) },
  }));
  return {
    id: 'chatcmpl-test',
    object: 'chat.completion',
    created: 1_763_800_000,
    model: 'gpt-test',
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content: answer.content ?? null, ...(toolCalls ? { tool_calls: toolCalls } : {}) },
        finish_reason: toolCalls ? 'tool_calls' : 'stop',
      },
    ],
    usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
  };
}

/** What the mocked server received, one entry per request. */
export interface ChatRequests {
  bodies: ChatRequestBody[];
  authorizations: (string | null)[];
  scope: nock.Scope;
}

export interface ChatRequestBody {
  model: string;
  messages: { role: string; content?: unknown; tool_calls?: unknown[]; tool_call_id?: string }[];
  tools?: { type: string; function: { name: string; description?: string; parameters: Record<string, any> } }[]; // eslint-disable-line @typescript-eslint/no-explicit-any
  response_format?: { type: string; json_schema?: { schema: unknown; strict?: boolean } };
  temperature?: number;
  max_tokens?: number;
}

/** Answers the next `POST /v1/chat/completions` requests with `replies` in turn ([status, body]). */
export function chatServer(replies: [number, object][], origin = AI_ORIGIN, path = '/v1/chat/completions'): ChatRequests {
  const received: ChatRequests = { bodies: [], authorizations: [], scope: nock(origin) };
  let next = 0;
  received.scope = nock(origin)
    .post(path)
    .times(replies.length)
    .reply(async (request: Request) => {
      received.bodies.push((await request.json()) as ChatRequestBody);
      received.authorizations.push(request.headers.get('authorization'));
      return replies[next++]!;
    });
  return received;
}
