import { generateText, stepCountIs, type ModelMessage, type OutputInterface, type ToolSet } from 'ai';
import { AppError } from '../../errors/app-error.ts';
import { withWorkingMemory } from '../memory/working-memory-block.ts';
import type { ActionInvocation, ActionServices } from '../runtime/action.ts';
import { RESERVED_TOOL_NAME } from '../runtime/action-specs.ts';
import { toAiError } from './ai-errors.ts';
import { stopOnToolFailure, toolFailure } from './ai-tool-failures.ts';

/**
 * Steps of a non-agent AI task: the model may call `update_memory` (and retry once if the store
 * rejects the value) and still give its answer.
 */
const MEMORY_TOOL_STEPS = 3;

/** What differs between the AI actions; everything else is `runAiCall`'s. */
export interface AiCallRequest {
  /** A text prompt, or a conversation (`input_mode: history`). */
  prompt: string | ModelMessage[];
  system: string | undefined;
  temperature?: number | undefined;
  maxOutputTokens?: number | undefined;
  /** Tools besides `update_memory` (the agent's custom tools). */
  tools?: ToolSet;
  /** Model calls allowed in the tool loop; default: enough to use `update_memory` and answer. */
  maxSteps?: number;
  /** Structured output (`Output.object`); default: text. */
  output?: OutputInterface;
}

/** What the actions read from the finished call. */
export interface AiCallResult {
  text: string;
  /** The structured output; throws when the model produced none. */
  readonly output: unknown;
}

/**
 * The part every AI action shares: resolves the task's model, builds the system text (the
 * task's `system` and the Working Memory block), offers `update_memory` for the
 * task's bound slugs plus any other tools, runs the AI SDK's tool loop under the run's abort
 * signal, fails when a tool failed while running (see `toolFailure`), and maps failures to
 * coded errors. `read` runs inside, so errors raised while reading
 * the result (no structured output) are mapped too. Retries and the per-call time limit belong
 * to the model (host/workflows/models/), hence `maxRetries: 0` here.
 */
export async function runAiCall<T>(
  invocation: ActionInvocation,
  services: ActionServices,
  request: AiCallRequest,
  read: (result: AiCallResult) => T,
): Promise<T> {
  const { task, run, taskName } = invocation;
  const model = services.models.modelFor(task, run.document);
  const tools = toolsFor(invocation, services, request.tools);
  const context = {
    taskName,
    provider: typeof model === 'string' ? 'gateway' : model.provider,
    modelId: typeof model === 'string' ? model : model.modelId,
  };
  try {
    const result = await generateText({
      model,
      instructions: systemText(request.system, services.memory.workingMemoryBlock(task)),
      ...(typeof request.prompt === 'string' ? { prompt: request.prompt } : { messages: request.prompt }),
      ...(tools ? { tools, stopWhen: [stepCountIs(request.maxSteps ?? MEMORY_TOOL_STEPS), stopOnToolFailure] } : {}),
      ...(request.output ? { output: request.output } : {}),
      temperature: request.temperature,
      maxOutputTokens: request.maxOutputTokens,
      abortSignal: run.signal,
      maxRetries: 0,
    });
    const failure = toolFailure(result.steps.at(-1));
    if (failure) throw failure.error;
    return read(result);
  } catch (error) {
    throw toAiError(error, context, run.signal);
  }
}

/**
 * The task's `system`, a blank line, the Working Memory block; undefined when both are
 * empty. Trailing whitespace of `system` goes (a YAML `|` block ends with a newline), so the
 * blank line is exactly one.
 */
function systemText(system: string | undefined, workingMemoryBlock: string): string | undefined {
  return withWorkingMemory(system?.trimEnd(), workingMemoryBlock) || undefined;
}

/** `update_memory` when the task binds memory, plus the given tools; undefined when there are none. */
function toolsFor(invocation: ActionInvocation, services: ActionServices, extra: ToolSet = {}): ToolSet | undefined {
  const memoryTool = services.memory.updateTool(invocation.task);
  const tools: ToolSet = { ...extra, ...(memoryTool ? { [RESERVED_TOOL_NAME]: memoryTool } : {}) };
  return Object.keys(tools).length > 0 ? tools : undefined;
}

/** The final text of the call; `BOT_ERR_AI_OUTPUT_INVALID` when the model gave none. */
export function requireText(invocation: ActionInvocation, result: AiCallResult): string {
  if (result.text.trim()) return result.text;
  throw new AppError('BOT_ERR_AI_OUTPUT_INVALID', `Task "${invocation.taskName}": the model answered with no text`, { task: invocation.taskName });
}
