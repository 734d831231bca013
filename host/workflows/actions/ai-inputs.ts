import { z } from 'zod';
import { AppError } from '../../errors/app-error.ts';
import type { ActionInvocation } from '../runtime/action.ts';

/**
 * The types of the AI actions' inputs, checked after the runner evaluated them (an expression
 * may yield anything). Saving a workflow already checks which keys a task may have
 * (runtime/action-specs.ts); these check what the values turned out to be.
 */

const system = z.string().optional();
const temperature = z.number().min(0).max(2).optional();
const maxOutputTokens = z.number().int().positive().optional();
const jsonSchemaObject = z.record(z.string(), z.unknown());

export const replyInputsSchema = z.object({
  input_mode: z.enum(['history', 'prompt']).optional(),
  messages_limit: z.number().int().min(1).max(100).optional(),
  system,
  prompt: z.string().optional(),
  temperature,
  max_output_tokens: maxOutputTokens,
});

export const textInputsSchema = z.object({ prompt: z.string(), system, temperature, max_output_tokens: maxOutputTokens });

export const objectInputsSchema = z.object({ prompt: z.string(), schema: jsonSchemaObject, system, temperature });

export const inferInputsSchema = z.object({ schema: jsonSchemaObject, text: z.string().optional(), system, temperature });

export const agentInputsSchema = z.object({
  prompt: z.string(),
  system,
  tools: z.array(z.string().min(1)).optional(),
  max_steps: z.number().int().min(1).max(20).optional(),
  temperature,
});

/**
 * The task's inputs checked against `schema`; `null` counts as absent (an expression over a
 * missing value). Throws `BOT_ERR_AI_INPUT_INVALID` naming every bad input.
 */
export function parseAiInputs<T>(schema: z.ZodType<T>, invocation: ActionInvocation): T {
  const present = Object.fromEntries(Object.entries(invocation.inputs).filter(([, value]) => value !== null && value !== undefined));
  const result = schema.safeParse(present);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => ({ path: ['inputs', ...issue.path.map(String)], message: issue.message }));
  throw new AppError(
    'BOT_ERR_AI_INPUT_INVALID',
    `Task "${invocation.taskName}": ${problems.map(({ path, message }) => `${path.join('.')}: ${message}`).join('; ')}`,
    { task: invocation.taskName, problems },
  );
}

/** `BOT_ERR_AI_INPUT_INVALID` for one input of the task. */
export function invalidInput(invocation: ActionInvocation, input: string, message: string, cause?: unknown): AppError {
  const problems = [{ path: ['inputs', input], message }];
  return new AppError('BOT_ERR_AI_INPUT_INVALID', `Task "${invocation.taskName}": inputs.${input}: ${message}`, { task: invocation.taskName, problems }, { cause });
}
